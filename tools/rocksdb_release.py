"""RocksDB 7.8.3 built from Debian's source package in Release mode: the
baseline a user who picks RocksDB would build, where Debian's own binaries
keep assertions on.

The source comes from apt-get source rocksdb (deb-src must be configured;
Debian's patches are applied as dpkg-source applies them). It is configured
as debian/rules configures it (the same codecs, PORTABLE=ON, Debian's
dpkg-buildflags) except CMAKE_BUILD_TYPE=Release with "-O2 -DNDEBUG", and
only the library and db_bench are built. The result is a prefix under
~/.cache/strata/rocksdb-release:

  prefix/bin/db_bench        linked with a RUNPATH to prefix/lib, so it runs
                             on this librocksdb and never on the system's
  prefix/lib/librocksdb.so*  the shared library
  prefix/include/rocksdb     the headers (ROCKSDB_PREFIX of the scripts
                             sourcing tools/rocksdb_program.sh)

A finished prefix is reused; a stamp file names the flags it was built
with, and a prefix built with other flags is rebuilt."""

import glob
import os
import shutil
import subprocess
import sys
import time

from compare_report import CompareError

VERSION = "7.8.3"
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "strata",
                     "rocksdb-release")
PREFIX = os.path.join(CACHE, "prefix")
DB_BENCH = os.path.join(PREFIX, "bin", "db_bench")
# What debian/rules passes to cmake, minus the tests and tools we never run.
DEBIAN_OPTIONS = ["-DWITH_BZ2=ON", "-DWITH_LZ4=ON", "-DWITH_ZLIB=ON",
                  "-DWITH_ZSTD=ON", "-DWITH_SNAPPY=ON",
                  "-DROCKSDB_BUILD_SHARED=ON", "-DWITH_BENCHMARK_TOOLS=ON",
                  "-DWITH_CORE_TOOLS=OFF", "-DWITH_TOOLS=OFF",
                  "-DWITH_TESTS=OFF", "-DPORTABLE=ON",
                  "-DFAIL_ON_WARNINGS=OFF"]
BUILD_DEPENDS = ["dpkg-dev", "cmake", "ninja-build", "libgflags-dev",
                 "libsnappy-dev", "libbz2-dev", "zlib1g-dev", "liblz4-dev",
                 "libzstd-dev"]


def log(message):
    print("rocksdb_release: %s" % message, file=sys.stderr)


def run(cmd, cwd=None, env=None):
    log("%s%s" % ("(in %s) " % cwd if cwd else "", " ".join(cmd)))
    if subprocess.call(cmd, cwd=cwd, env=env, stdout=sys.stderr) != 0:
        raise CompareError("failed: %s" % " ".join(cmd))


def build_flags():
    """(CFLAGS, CXXFLAGS, LDFLAGS) as dpkg-buildflags gives them to
    Debian's build, the LDFLAGS with the RUNPATH to prefix/lib."""
    def get(name):
        # Run in CACHE: -ffile-prefix-map names the working directory.
        try:
            return subprocess.run(
                ["dpkg-buildflags", "--get", name], cwd=CACHE,
                stdout=subprocess.PIPE, universal_newlines=True,
                check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError) as e:
            raise CompareError("dpkg-buildflags --get %s: %s" % (name, e))
    ldflags = "%s -Wl,-rpath,%s" % (get("LDFLAGS"),
                                    os.path.join(PREFIX, "lib"))
    return get("CFLAGS"), get("CXXFLAGS"), ldflags


def stamp_text(flags):
    return "\n".join(["rocksdb %s Release -O2 -DNDEBUG" % VERSION] +
                     list(flags) + DEBIAN_OPTIONS) + "\n"


def source_dir(apt_install):
    """The unpacked source, fetched with apt-get source when missing."""
    src = os.path.join(CACHE, "src")
    tree = os.path.join(src, "rocksdb-%s" % VERSION)
    if os.path.isfile(os.path.join(tree, "CMakeLists.txt")):
        return tree
    if shutil.which("dpkg-source") is None:
        apt_install("dpkg-dev")
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    run(["apt-get", "source", "rocksdb"], cwd=src)
    if not os.path.isfile(os.path.join(tree, "CMakeLists.txt")):
        raise CompareError("apt-get source rocksdb left no %s" % tree)
    return tree


def check_runpath(binary):
    """The binary must load prefix/lib/librocksdb.so, not the system's."""
    out = subprocess.run(["ldd", binary], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    lines = [l for l in out.splitlines() if "librocksdb" in l]
    want = os.path.join(PREFIX, "lib")
    if not lines or not all(want in l for l in lines):
        raise CompareError("%s does not load librocksdb from %s:\n%s" %
                           (binary, want, out))


def ensure_release_rocksdb(apt_install):
    """The release db_bench, building the prefix first when it is missing
    or was built with other flags (about 40 minutes on two cores)."""
    os.makedirs(CACHE, exist_ok=True)
    if shutil.which("dpkg-buildflags") is None:
        apt_install("dpkg-dev")
    flags = build_flags()
    stamp = os.path.join(PREFIX, "stamp")
    try:
        with open(stamp) as f:
            if f.read() == stamp_text(flags) and os.access(DB_BENCH,
                                                           os.X_OK):
                check_runpath(DB_BENCH)
                return DB_BENCH
    except OSError:
        pass
    for package in BUILD_DEPENDS:
        if subprocess.call(["dpkg", "-s", package], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL) != 0:
            apt_install(package)
    tree = source_dir(apt_install)
    build = os.path.join(CACHE, "build")
    # CMake keeps the flags of its first configure: a build made with
    # other flags (no stamp, or another one) starts over.
    shutil.rmtree(build, ignore_errors=True)
    env = dict(os.environ, CFLAGS=flags[0], CXXFLAGS=flags[1],
               LDFLAGS=flags[2])
    started = time.time()
    if not os.path.isfile(os.path.join(build, "build.ninja")):
        os.makedirs(build, exist_ok=True)
        run(["cmake", "-S", tree, "-B", build, "-G", "Ninja",
             "-DCMAKE_BUILD_TYPE=Release",
             "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG",
             "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"] + DEBIAN_OPTIONS,
            env=env)
    run(["cmake", "--build", build, "--target", "rocksdb-shared", "db_bench"],
        env=env)
    shutil.rmtree(PREFIX, ignore_errors=True)
    for sub in ("bin", "lib"):
        os.makedirs(os.path.join(PREFIX, sub))
    shutil.copytree(os.path.join(tree, "include"),
                    os.path.join(PREFIX, "include"))
    for lib in glob.glob(os.path.join(build, "librocksdb.so*")):
        dest = os.path.join(PREFIX, "lib", os.path.basename(lib))
        if os.path.islink(lib):
            os.symlink(os.readlink(lib), dest)
        else:
            shutil.copy2(lib, dest)
    shutil.copy2(os.path.join(build, "db_bench"), DB_BENCH)
    check_runpath(DB_BENCH)
    with open(stamp, "w") as f:
        f.write(stamp_text(flags))
    log("built %s in %.0f s" % (DB_BENCH, time.time() - started))
    return DB_BENCH
