# lit runs the runtime's GoogleTest binaries (names ending in "Tests") found
# in this suite's build directory.
import lit.formats

config.name = "Capsule-Unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.unit_test_dir
config.test_exec_root = config.unit_test_dir
# The tests set these themselves; the caller's values must not leak in.
for var in ["CAPSULE_FRAME_STACK", "CAPSULE_STATS", "CAPSULE_TAPE_LIMIT"]:
    config.environment.pop(var, None)
