"""The machine and the binaries of tools/compare_rocksdb.py: a line
describing the machine, the two db_bench binaries (installing Debian's
rocksdb-tools when RocksDB's is missing) and a Python that can draw the
PNGs (installing python3-matplotlib when needed)."""

import os
import platform
import re
import shutil
import subprocess
import sys

from compare_report import CompareError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_STRATA = os.path.join(ROOT, "build", "release", "db_bench")
DEFAULT_ROCKSDB = "/usr/bin/db_bench"  # Debian's rocksdb-tools
DEBIAN_PYTHON = "/usr/bin/python3"  # where python3-matplotlib installs


# ------------------------------------------------------------ the machine

def machine_info(db_parent):
    """One line: CPU model, cores, memory, kernel, the DB's filesystem."""
    model, cores = platform.processor() or "unknown CPU", os.cpu_count()
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
        names = re.findall(r"^model name\s*:\s*(.*)$", text, re.M)
        if names:
            model, cores = names[0].strip(), len(names)
    except OSError:
        pass
    mem = "unknown memory"
    try:
        with open("/proc/meminfo") as f:
            m = re.search(r"^MemTotal:\s+(\d+) kB", f.read(), re.M)
        if m:
            mem = "%.1f GiB RAM" % (int(m.group(1)) / 1024.0 / 1024.0)
    except OSError:
        pass
    return "%s, %d cores, %s, %s %s, DB directory on %s" % (
        model, cores, mem, platform.system(), platform.release(),
        filesystem_of(db_parent))


def filesystem_of(path):
    """"ext4 (/)": the type and mount point holding path (fillsync on a
    tmpfs would measure nothing)."""
    best = ("?", "")
    try:
        with open("/proc/mounts") as f:
            for line in f:
                fields = line.split()
                if len(fields) < 3:
                    continue
                mnt = fields[1].replace("\\040", " ")
                inside = path == mnt or path.startswith(mnt.rstrip("/") + "/")
                if inside and len(mnt) >= len(best[1]):
                    best = (fields[2], mnt)
    except OSError:
        pass
    return "%s (%s)" % best if best[1] else "an unknown filesystem"


# ----------------------------------------------------- installing things

def apt_install(package):
    """apt-get install -y package (through sudo when not root); one
    apt-get update and a retry when the first attempt fails."""
    prefix = []
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        if shutil.which("sudo") is None:
            raise CompareError("%s is missing and installing it needs root: "
                               "run apt-get install -y %s" % (package,
                                                              package))
        prefix = ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = prefix + ["apt-get", "install", "-y", package]
    print("compare_rocksdb: %s" % " ".join(install), file=sys.stderr)
    # apt's chatter goes to stderr: stdout carries only the report.
    if subprocess.call(install, env=env, stdout=sys.stderr) == 0:
        return
    subprocess.call(prefix + ["apt-get", "update"], env=env,
                    stdout=sys.stderr)
    if subprocess.call(install, env=env, stdout=sys.stderr) != 0:
        raise CompareError("apt-get install -y %s failed" % package)


def find_binaries(args):
    """(strata path, RocksDB path). --rocksdb "release" (the default when
    not given) is RocksDB 7.8.3 built in Release mode from Debian's source
    (tools/rocksdb_release.py; built on first use, about 30 minutes);
    "debian" is Debian's rocksdb-tools (assertions on), installed when
    missing; anything else is a path."""
    strata = os.path.abspath(args.strata)
    if not os.access(strata, os.X_OK):
        raise CompareError(
            "no strata db_bench at %s: build it with ./build.sh bench "
            "(or pass --strata=PATH)" % strata)
    rocksdb = args.rocksdb or "release"
    if rocksdb == "release":
        import rocksdb_release
        rocksdb = rocksdb_release.ensure_release_rocksdb(apt_install)
    elif rocksdb == "debian":
        rocksdb = DEFAULT_ROCKSDB
        if not os.access(rocksdb, os.X_OK):
            apt_install("rocksdb-tools")
    rocksdb = os.path.abspath(rocksdb)
    if not os.access(rocksdb, os.X_OK):
        raise CompareError("no RocksDB db_bench at %s" % rocksdb)
    return strata, rocksdb


def rocksdb_build(path):
    """What the RocksDB binary at path is, for the report."""
    import rocksdb_release
    if os.path.abspath(path) == rocksdb_release.DB_BENCH:
        return ("release build of Debian's source package (NDEBUG, -O2; "
                "tools/rocksdb_release.py)")
    if os.path.abspath(path) == DEFAULT_ROCKSDB:
        return "Debian's rocksdb-tools (built with assertions on)"
    return "given with --rocksdb"


def plot_python():
    """An interpreter that can import matplotlib: this one, else Debian's
    (after apt-get install python3-matplotlib if needed); None when there
    is none (the PNGs are then skipped with a message)."""
    def has_matplotlib(python):
        return subprocess.call([python, "-c", "import matplotlib"],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL) == 0

    if has_matplotlib(sys.executable):
        return sys.executable
    if not os.access(DEBIAN_PYTHON, os.X_OK):
        return None
    if not has_matplotlib(DEBIAN_PYTHON):
        try:
            apt_install("python3-matplotlib")
        except CompareError as e:
            print("compare_rocksdb: %s" % e, file=sys.stderr)
            return None
    return DEBIAN_PYTHON if has_matplotlib(DEBIAN_PYTHON) else None


def main(argv):
    """compare_setup.py release-rocksdb: build (or find) the release
    RocksDB of rocksdb_release.py and print its db_bench."""
    if argv != ["release-rocksdb"]:
        print("usage: compare_setup.py release-rocksdb", file=sys.stderr)
        return 2
    import rocksdb_release
    try:
        print(rocksdb_release.ensure_release_rocksdb(apt_install))
    except CompareError as e:
        print("compare_setup: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
