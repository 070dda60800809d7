"""Shrinks a failing case to the statements the failure needs.

Greedy, in passes until nothing more goes: each statement of each function
body is removed if the case still fails the same way, an if is replaced by
one of its branches, and what survives is searched the same way inside.
Removing any statement leaves a well-defined program (program.py), so the
only test is the failure itself.
"""


def reduce_case(case, still_fails):
    """still_fails(case) -> bool must hold for case; shrinks it in place."""
    progress = True
    while progress:
        progress = False
        for function in case.functions():
            progress |= reduce_block(function.body, case, still_fails)
    return case


def reduce_block(block, case, still_fails):
    progress = False
    i = 0
    while i < len(block):
        stmt = block.pop(i)
        if still_fails(case):
            progress = True
            continue
        # Keep only one branch of the statement, in its place.
        for inner in stmt.blocks if stmt.head.startswith("if") else []:
            block[i:i] = inner
            if still_fails(case):
                progress = True
                break
            del block[i:i + len(inner)]
        else:
            block.insert(i, stmt)
            for inner in stmt.blocks:
                progress |= reduce_block(inner, case, still_fails)
            i += 1
    return progress
