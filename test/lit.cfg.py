# lit configuration of Capsule's tests: test/ir (opt + FileCheck), test/e2e
# (programs built with the pass, then run) and test/tools. The runtime's
# GoogleTest binary is the sub-suite test/unit, configured in test/unit/.
import os
import sys

import lit.formats

sys.path.insert(0, os.path.dirname(__file__))
from capsule_settings import clear_settings  # noqa: E402

config.name = "Capsule"
# bash, so RUN lines may use $(...), loops and the like.
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".c", ".cpp", ".test", ".sh"]
# Headers shared by tests and the inputs of tests are not tests.
config.excludes = ["include", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.capsule_obj_root, "test")


def tool(name):
    return os.path.join(config.llvm_tools_dir, name)


# LLVM 19's tools first: the machine's default clang and FileCheck may be
# older.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])]
)
for var in ["HOME", "TMPDIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Tests that want these set them; the caller's values must not leak in.
clear_settings(config)



def cpu_flags():
    """The processor's instruction-set extensions, from /proc/cpuinfo."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


# Tests that run code built for AVX2 and FMA require them (REQUIRES:
# avx2-fma); every x86-64 processor of the last decade has them.
if {"avx2", "fma"} <= cpu_flags():
    config.available_features.add("avx2-fma")
# AVX-512 (what -march=native gives on server processors) is rarer.
if "avx512f" in cpu_flags():
    config.available_features.add("avx512f")

include_flags = "-I{0}/include -I{0}/test/e2e/include".format(
    config.capsule_src_root
)
# Patterns are regular expressions applied in order; \b stops %clang from
# matching the start of %clangxx, and `not` is only replaced where a command
# starts.
config.substitutions += [
    (r"%clangxx\b", tool("clang++")),
    (r"%clang\b", tool("clang")),
    (r"%opt\b", tool("opt")),
    (r"%llvm_ar\b", tool("llvm-ar")),
    (r"%llvm_bindir\b", config.llvm_tools_dir),
    (r"%plugin\b", config.capsule_plugin),
    (
        r"%capsule_cflags\b",
        # What capsule-config gives: the pass, and clang's plugin for the
        # attributes of custom rules.
        "-fpass-plugin={} -fplugin={} {}".format(
            config.capsule_plugin, config.capsule_attributes, include_flags
        ),
    ),
    (r"%capsule_ldflags\b", config.capsule_runtime + " -lm"),
    (
        r"%check_checkpointed\b",
        "python3 "
        + os.path.join(config.capsule_src_root, "test/e2e/tools/checkpointed.py"),
    ),
    (r"%capsule_config\b", config.capsule_config),
    (r"%build_dir\b", config.capsule_obj_root),
    (r"%src_root\b", config.capsule_src_root),
    (r"%cmake\b", config.cmake_command),
    (r"(?<![\w/.%-])FileCheck\b", tool("FileCheck")),
    (r"(^\s*|[|;&(]\s*)not(?=\s)", r"\g<1>" + tool("not")),
]
