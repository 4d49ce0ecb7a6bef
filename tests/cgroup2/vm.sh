#!/usr/bin/env bash
# `make test-cgroup2`: boots a cgroup v2 kernel (Debian's linux-image-amd64) once under
# QEMU through virtme-ng, with this machine's root filesystem, and runs inside.sh there.
# Software emulation (--disable-kvm): this machine's /dev/kvm is kvm_pvm (a paravirtual
# hypervisor inside a Firecracker VM, no vmx/svm), which boots only kernels built as PVM
# guests; Debian's kernel gets through its decompressor and hangs (docs/sandbox.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.venv/bin}
kernel=$(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$kernel" ]; then
  echo "test-cgroup2: no kernel in /boot (apt-get install linux-image-amd64)" >&2
  exit 2
fi
for tool in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static "$BIN/vng":virtme-ng; do
  if ! command -v "${tool%%:*}" >/dev/null; then
    echo "test-cgroup2: ${tool%%:*} not found (install ${tool##*:})" >&2
    exit 2
  fi
done
out=$(mktemp -d /tmp/gridjudge-cgroup2.XXXXXX)
chmod 0777 "$out"  # the ordinary user inside the VM writes its log here too
start=$(date +%s)
# compiled natively here, found in the compile cache there (emulation is ~10x slower)
GRIDJUDGE_CACHE="$out/cache" "$BIN/python" -m tests.cgroup2.warm >"$out/warm.log" 2>&1 ||
  { echo "test-cgroup2: building the VM's programs failed:" >&2; tail -n 20 "$out/warm.log" >&2; exit 1; }
chmod -R a+rwX "$out/cache"
# bytecode for what the VM imports (this machine's environment may set
# PYTHONDONTWRITEBYTECODE, and the VM writes none): compiling the modules and rewriting
# the tests' asserts costs a minute per pytest run under emulation
# (only the judge and the test modules: the Python programs under tests/ are submissions,
# validators and interactors, whose folders get no __pycache__ from us)
"$BIN/python" -m compileall -q pipeline tests/*.py tests/cgroup2 tests/solvers >/dev/null
env -u PYTHONDONTWRITEBYTECODE "$BIN/python" -m pytest -q -p no:cacheprovider --collect-only \
  tests/cgroup2 tests/test_hostile.py tests/test_forkserver.py tests/test_forkserver_agreement.py \
  >/dev/null
# the reference work's CPU here; inside.sh times it there and scales the tests' limits
host_cpu=$("$BIN/python" tests/cgroup2/calibrate.py)
# 4 GB: mle_allocate_2gb.c's malloc must succeed (and the cgroup end it), which a 2 GB
# VM's overcommit heuristic refuses. One virtual CPU, emulated on one core of this
# machine (VM_CORE, the last by default): the others stay free for what else runs here,
# and a second emulated CPU on the same core would only add switching.
core=${VM_CORE:-$(($(nproc) - 1))}
PATH="$PWD/$BIN:$PATH" timeout "${VM_TIMEOUT:-1500}" taskset -c "$core" "$BIN/vng" --run "$kernel" \
  --disable-kvm --cpus 1 --memory 4G --rwdir "$out" \
  --exec "sh tests/cgroup2/inside.sh $out $host_cpu ${VM_SUBSET:-full}" \
  >"$out/console.log" 2>&1 || echo "test-cgroup2: vng exited $?" >&2
cat "$out/log" 2>/dev/null || { echo "test-cgroup2: the VM wrote no log:" >&2; tail -n 30 "$out/console.log" >&2; }
echo "test-cgroup2: $(($(date +%s) - start)) s for boot and tests ($kernel; logs in $out)"
rc=$(cat "$out/rc" 2>/dev/null || echo 1)
exit "$rc"
