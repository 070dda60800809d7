"""The runtime's environment settings, which tests set themselves when they
want them: the lit configurations clear them so that the caller's values
never leak into a test."""

SETTINGS = [
    "CAPSULE_STATS",
    "CAPSULE_TAPE_LIMIT",
    "CAPSULE_FRAME_STACK",
    "CAPSULE_STRATEGY",
    "CAPSULE_SPLIT",
    "CAPSULE_CRITERION",
    "CAPSULE_SNAPSHOTS",
    "CAPSULE_REPS",
    "CAPSULE_LEAF_STEPS",
    "CAPSULE_MEMORY_LIMIT",
    "CAPSULE_TRACE",
    # Read by the compiler (the pass), not the runtime.
    "CAPSULE_CHECKPOINT_ALL",
]


def clear_settings(config):
    for var in SETTINGS:
        config.environment.pop(var, None)
