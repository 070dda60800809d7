# lit runs the runtime's GoogleTest binaries (names ending in "Tests") found
# in this suite's build directory.
import os
import sys

import lit.formats

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from capsule_settings import clear_settings  # noqa: E402

config.name = "Capsule-Unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.unit_test_dir
config.test_exec_root = config.unit_test_dir
# The tests set these themselves; the caller's values must not leak in.
clear_settings(config)
