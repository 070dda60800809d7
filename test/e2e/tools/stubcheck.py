#!/usr/bin/env python3
"""Validates the end-to-end test corpus itself, without the Capsule pass.

Each test is compiled with clang-19 WITHOUT the plugin, with stub markers
appended to its translation unit that compute nothing (they return zeros and
leave every shadow untouched). Then:

  * the program must exit 1 (a test that passes with a do-nothing gradient
    checks nothing), every gradient check should fail (checks that pass under
    the stub, e.g. a derivative that must be exactly 0, are listed), and no
    reference check (closed form against FD) may fail;
  * the FD references must not move when the FD step changes: the test is
    rebuilt with CHECK_FD_STEP 4e-6 and 2.5e-7 and every `want` is compared
    with the default run's; a change above 25% of the check's tolerance is
    reported (truncation error grows 16x at 4e-6, rounding error 4x at
    2.5e-7, so the error at the default step is a few % at most);
  * the run must be fast (< 0.2 s).

Usage: stubcheck.py [test files...]   (default: every test in test/e2e)
"""
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
E2E = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(E2E))

MARKER_DECL = re.compile(
    r'^[ \t]*(?:extern[ \t]+"C"[ \t]+)?([A-Za-z_][\w \t\*]*?)[ \t\*]*?'
    r'\b(__(?:capsule|enzyme)_autodiff\w*)[ \t]*\([ \t]*void[ \t]*\*[^;{]*?'
    r'\.\.\.[ \t]*\)[ \t]*;', re.M)

INTS = ['capsule_dup', 'capsule_dupnoneed', 'capsule_const', 'capsule_out',
        'enzyme_dup', 'enzyme_dupnoneed', 'enzyme_const', 'enzyme_out']


def stub_tail(src, cxx):
    out = ['\n/* ---- stubcheck: do-nothing markers ---- */']
    decls = {}
    for m in MARKER_DECL.finditer(src):
        decls[m.group(2)] = m.group(1).strip()
    if '#include <capsule/capsule.h>' in src and not cxx:
        decls.setdefault('__capsule_autodiff', 'double')
        decls.setdefault('__capsule_autodiff_checkpointed', 'double')
    lines = []
    for name, ret in decls.items():
        if ret == 'void':
            lines.append('void %s(void *fn, ...) { (void)fn; }' % name)
        else:
            lines.append('%s %s(void *fn, ...) { %s r; (void)fn; '
                         'memset(&r, 0, sizeof r); return r; }' %
                         (ret, name, ret))
    if 'capsule_get_stats' in src:
        lines.append('void capsule_get_stats(capsule_stats_t *o) '
                     '{ memset(o, 0, sizeof *o); }')
        lines.append('void capsule_reset_stats(void) {}')
        lines.append('static uint64_t stub_limit;')
        lines.append('void capsule_set_tape_limit(uint64_t b) '
                     '{ stub_limit = b; }')
        lines.append('uint64_t capsule_tape_limit(void) { (void)stub_limit; return 12345; }')
    for v in INTS:
        lines.append('int %s = %d;' % (v, 1000 + INTS.index(v)))
    if cxx:
        out.append('extern "C" {')
    out += lines
    if cxx:
        out.append('}')
        if '__capsule_autodiff<' in src:
            out.append('template <typename RT, typename... Args> '
                       'RT __capsule_autodiff(void *, Args...) '
                       '{ return RT(); }')
    return '\n'.join(out) + '\n'


def build(path, extra, tmp, tag):
    cxx = path.endswith('.cpp')
    src = open(path).read()
    tu = os.path.join(tmp, tag + (os.path.basename(path)))
    with open(tu, 'w') as f:
        f.write(src)
        f.write('#include <string.h>\n' if not cxx else '#include <cstring>\n')
        f.write(stub_tail(src, cxx))
    exe = tu + '.exe'
    cc = 'clang++-19' if cxx else 'clang-19'
    flags = ['-g', '-iquote', E2E, '-I', os.path.join(ROOT, 'include')]
    if cxx and '-fexceptions' in src:
        flags.append('-fexceptions')
    cmd = [cc] + flags + extra + [tu, '-o', exe] + ([] if cxx else ['-lm'])
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr
    return exe, None


CHECK_LINE = re.compile(
    r'^(FAIL|ok) (.*?): got (\S+) want (\S+)(?: \(err \S+, tol (\S+)\))?$')


def run(exe):
    t = time.time()
    r = subprocess.run([exe], capture_output=True, text=True, timeout=20)
    dt = time.time() - t
    checks = {}
    for line in r.stdout.splitlines():
        m = CHECK_LINE.match(line)
        if m:
            checks[m.group(2)] = (m.group(1), float(m.group(4)))
    return r.returncode, r.stdout, checks, dt


def main():
    files = sys.argv[1:] or sorted(
        os.path.join(E2E, f) for f in os.listdir(E2E)
        if f.endswith('.c') or f.endswith('.cpp'))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            name = os.path.basename(path)
            problems = []
            runs = {}
            for tag, extra in [('d', []), ('b', ['-DCHECK_FD_STEP=4e-6']),
                               ('s', ['-DCHECK_FD_STEP=2.5e-7']),
                               ('o', ['-O2'])]:
                exe, err = build(path, ['-DCHECK_VERBOSE', '-O0'] + extra,
                                 tmp, tag)
                if exe is None:
                    problems.append('build %s failed:\n%s' % (tag, err))
                    break
                runs[tag] = run(exe)
            if not problems:
                rc, out, checks, dt = runs['d']
                if rc != 1:
                    problems.append('exit code %d under stubs (want 1)' % rc)
                if 'reference checks FAILED' in out:
                    problems.append('reference check failed:\n' + out)
                if not checks:
                    problems.append('no checks seen')
                passing = [k for k, v in checks.items() if v[0] == 'ok']
                if len(passing) * 2 > len(checks):
                    problems.append('most checks pass under stubs')
                if dt > 0.2:
                    problems.append('slow: %.2fs' % dt)
                worst = 0.0
                for tag in ('b', 's', 'o'):
                    other = runs[tag][2]
                    if set(other) != set(checks):
                        problems.append('checks differ in run %s' % tag)
                        continue
                    for k, (_, want) in checks.items():
                        w2 = other[k][1]
                        tol = 1e-8 + 1e-6 * abs(want)
                        worst = max(worst, abs(w2 - want) / tol)
                if worst > 0.25:
                    problems.append('FD reference moves with the step: '
                                    '%.3g of the tolerance' % worst)
                print('%-40s %3d checks, %d pass under stubs%s, FD drift '
                      '%.1e tol, %.3fs' %
                      (name, len(checks), len(passing),
                       (' ' + str(passing)) if passing else '', worst, dt))
            if problems:
                bad += 1
                print('PROBLEM %s:\n  %s' % (name, '\n  '.join(problems)))
    print('%d files, %d with problems' % (len(files), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
