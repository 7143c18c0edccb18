#!/usr/bin/env python3
"""Compares how two pith binaries classify every PDF of a corpus.

    python3 bench/corpus_classes.py OLD_PITH NEW_PITH [CORPUS_DIR]

Each binary runs `pith inject FILE --number N -o OUT` on every file. The class of a file is
"injected", "unchanged" or the kind of refusal (the words of the error after the file name,
numbers and offsets removed). Prints the class counts side by side, every file whose class
changed, and how many outputs differ byte for byte. For a file that one binary refuses as
damaged and the other injects, it also runs `qpdf --check` on the input and the output:
the output must be no worse (no more errors) than the input.

Not a timed benchmark; it lives in bench/ because it is run by hand before and after a
change to the reader.
"""
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

NUMBER = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"
# Fixed update time, so that outputs of the two binaries can be compared byte for byte.
os.environ["SOURCE_DATE_EPOCH"] = "1790000000"


def classify(pith, pdf, out):
    r = subprocess.run([pith, "inject", pdf, "--number", NUMBER, "-o", out], capture_output=True, text=True,
                       errors="replace", timeout=300)
    if r.returncode == 0:
        return "unchanged" if "already" in r.stdout or "unchanged" in r.stdout else "injected", r.stderr
    line = r.stderr.strip().splitlines()[0] if r.stderr.strip() else "exit %d" % r.returncode
    # "pith: FILE: reason (details)": keep the reason's first words.
    line = line.split(pdf + ": ", 1)[-1]
    kind = re.sub(r"\d+", "N", line)
    kind = kind.split(":")[0].split("(")[0].strip()
    if "damaged" in line or "xref" in line or "offset" in line or "cross-reference" in line:
        kind = "damaged"
    return kind, line


def qpdf_errors(path):
    r = subprocess.run(["qpdf", "--check", path], capture_output=True, text=True, errors="replace", timeout=300)
    text = r.stdout + r.stderr
    return r.returncode, len(re.findall(r"(?m)^(?:WARNING|ERROR|qpdf:)", text))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    corpus = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus")
    pdfs = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.lower().endswith(".pdf"))
    work = tempfile.mkdtemp(prefix="pith-classes-")

    def one(i_pdf):
        i, pdf = i_pdf
        a, b = os.path.join(work, "%05d-old.pdf" % i), os.path.join(work, "%05d-new.pdf" % i)
        ca, la = classify(old, pdf, a)
        cb, lb = classify(new, pdf, b)
        same = None
        if os.path.exists(a) and os.path.exists(b):
            same = open(a, "rb").read() == open(b, "rb").read()
            if not same:
                # Encrypted outputs carry random AES initialisation vectors: a second run of
                # the old binary tells those apart from a real difference.
                c = os.path.join(work, "%05d-again.pdf" % i)
                classify(old, pdf, c)
                if open(a, "rb").read() != open(c, "rb").read():
                    same = "random"
                os.remove(c)
        worse = None
        if ca != cb and os.path.exists(b):
            worse = qpdf_errors(b)[1] > qpdf_errors(pdf)[1]
        for p in (a, b):
            if os.path.exists(p):
                os.remove(p)
        return pdf, ca, cb, la, lb, same, worse

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as ex:
        rows = list(ex.map(one, enumerate(pdfs)))
    os.rmdir(work)
    count_old = collections.Counter(r[1] for r in rows)
    count_new = collections.Counter(r[2] for r in rows)
    print("%d files under %s\n" % (len(rows), corpus))
    print("| class | old | new |")
    print("|---|---:|---:|")
    for k in sorted(set(count_old) | set(count_new), key=lambda k: -max(count_old[k], count_new[k])):
        print("| %s | %d | %d |" % (k, count_old[k], count_new[k]))
    changed = [r for r in rows if r[1] != r[2]]
    print("\n%d files changed class" % len(changed))
    for pdf, ca, cb, la, lb, _, worse in changed:
        verdict = "" if worse is None else (" — output WORSE under qpdf --check" if worse else " — output no worse under qpdf --check")
        print("- %s: %s -> %s%s\n    old: %s\n    new: %s" % (os.path.relpath(pdf, corpus), ca, cb, verdict, la, lb))
    both = [r for r in rows if r[5] is not None]
    print("\noutputs written by both: %d, byte-identical: %d, differing from run to run of the same binary "
          "(random IVs of encrypted files): %d" % (len(both), sum(1 for r in both if r[5] is True),
                                                    sum(1 for r in both if r[5] == "random")))
    for r in both:
        if r[5] is False:
            print("- output differs: %s" % os.path.relpath(r[0], corpus))
    sys.exit(1 if any(r[6] for r in rows) else 0)


if __name__ == "__main__":
    main()
