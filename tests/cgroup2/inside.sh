#!/bin/sh
# Runs inside the cgroup v2 VM as root (vm.sh boots it), from the repository root.
# First the bare kernel interface, then tests/cgroup2 as root (slots under the unified
# root) and as an ordinary user (uid 1000) given a delegated subtree, made as systemd's
# Delegate=yes makes one: a cgroup whose directory and cgroup.procs, cgroup.threads and
# cgroup.subtree_control belong to the user, the user's process already in it.
OUT=$1
HOST_CPU=$2  # the CPU seconds of calibrate.py's work on the host (vm.sh)
SUBSET=${3:-full}  # full, or ci: the part .ci/run runs (below)
CG=/sys/fs/cgroup
PY=.venv/bin/python
USER_ID=1000
export PYTHONDONTWRITEBYTECODE=1 CI=true GRIDJUDGE_CACHE=$OUT/cache
PYTEST="$PY -m pytest -q -p no:cacheprovider"
# full: tests/cgroup2, the hostile battery spawned and served (not batched, not bwrap),
# the fork-server attacks, spawn and fork server agreeing on spot's golden sample.
# ci (what .ci/run runs; under emulation on 2 busy cores the full one takes far longer):
# the sandbox on v2 slots (MLE by the cgroup, Java and Go under 256 MB, peak and CPU
# from the cgroup, the fork bomb, nothing left) as root, and as the ordinary user with
# namespaces and a delegated subtree that too and the hostile battery through the fork
# server; then the refusal without user namespaces.
suite() {  # suite RUNNER...: the parts through RUNNER (nothing, or as_user CGROUP)
  failed=0
  if [ "$SUBSET" = ci ]; then
    timed "$@" $PYTEST tests/cgroup2/test_cgroup2_sandbox.py || failed=1
    [ -n "$*" ] && { timed "$@" $PYTEST tests/test_hostile.py -k fork-server || failed=1; }
    return $failed
  fi
  timed "$@" $PYTEST tests/cgroup2 --ignore=tests/cgroup2/test_no_user_namespaces.py ||
    failed=1
  timed "$@" $PYTEST tests/test_hostile.py -k "not bwrap and not batch" || failed=1
  timed "$@" $PYTEST tests/test_forkserver.py || failed=1
  timed "$@" $PYTEST tests/test_forkserver_agreement.py -k spot || failed=1
  return $failed
}
timed() {  # timed CMD...: CMD, then how long it took
  t0=$(date +%s)
  "$@"
  rc=$?
  echo "-- $(($(date +%s) - t0)) s"
  return $rc
}
exec >"$OUT/log" 2>&1
say() { echo "== $*"; }
as_user() {  # as_user CGROUP CMD...: CMD as uid 1000, started inside CGROUP
  cg=$1
  shift
  [ -d "$cg/judge" ] && cg=$cg/judge  # a judge made it a parent: its processes go there
  sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" \
    setpriv --reuid=$USER_ID --regid=$USER_ID --clear-groups \
    env HOME=/tmp/home-$USER_ID PATH=/usr/bin:/bin "$@"
}
delegate() {  # delegate NAME: a subtree of the root, handed to uid 1000
  mkdir "$CG/$1"
  chown $USER_ID:$USER_ID "$CG/$1" "$CG/$1/cgroup.procs" "$CG/$1/cgroup.threads" \
    "$CG/$1/cgroup.subtree_control"
}
ALLOC='b = b"x" * (40 << 20); print("allocated 40 MB")'
# `gridjudge doctor` without importing every other command (minutes under emulation)
DOCTOR="$PY -c 'import typer; from pipeline.cli.doctor import doctor; typer.run(doctor)'"
open_home_for_user() {  # the venv's interpreter may live under root's home (pyenv, mode 0700)
  home=$(getent passwd root | cut -d: -f6)
  setpriv --reuid=$USER_ID --regid=$USER_ID --clear-groups test -x "$(readlink -f $PY)" && return
  mkdir -p /tmp/root-home && mount --bind "$home" /tmp/root-home
  mount -t tmpfs -o mode=0755 tmpfs "$home"  # in the VM only: the host's stays 0700
  for entry in /tmp/root-home/.* /tmp/root-home/*; do
    case $entry in */.|*/..) continue ;; esac
    [ -d "$entry" ] && mkdir "$home/${entry##*/}" && mount --bind "$entry" "$home/${entry##*/}"
  done
  say "uid $USER_ID cannot enter $home: a 0755 tmpfs over it here, its folders bound back"
}

say "kernel $(uname -r); $(grep cgroup /proc/self/mounts)"
# how much slower honest work runs here than on the host: the tests' limits scale by it
vm_cpu=$($PY tests/cgroup2/calibrate.py)
GRIDJUDGE_TEST_TIME_SCALE=$($PY -c 'import math, sys; h, v = map(float, sys.argv[1:]); print(max(1.0, math.ceil(10 * v / h) / 10))' "$HOST_CPU" "$vm_cpu")
export GRIDJUDGE_TEST_TIME_SCALE
# pytest-timeout's 180 s per test (pyproject) is a native-speed bound too
PYTEST="$PYTEST -o timeout=$($PY -c 'import sys; print(int(180 * float(sys.argv[1])))' "$GRIDJUDGE_TEST_TIME_SCALE")"
say "reference work: $HOST_CPU s of CPU on the host, $vm_cpu s here: time scale $GRIDJUDGE_TEST_TIME_SCALE"
say "controllers: $(cat $CG/cgroup.controllers)"
echo "+memory +pids" >$CG/cgroup.subtree_control

say "root: a cgroup with memory.max 64M, a process allocating 40 MB in it"
mkdir $CG/proof
echo 64M >$CG/proof/memory.max
sh -c 'echo $$ > "$0/cgroup.procs" && exec python3 -c "$1"' $CG/proof "$ALLOC"
echo "memory.peak $(cat $CG/proof/memory.peak); $(grep oom_kill $CG/proof/memory.events)"
rmdir $CG/proof

say "uid $USER_ID in a delegated subtree: moves itself to a leaf, enables memory and pids, same run"
delegate user-proof
mkdir -p /tmp/home-$USER_ID && chown $USER_ID /tmp/home-$USER_ID
as_user $CG/user-proof sh -c '
  d=$0; id -u; mkdir $d/leaf && echo $$ > $d/leaf/cgroup.procs &&
  echo "+memory +pids" > $d/cgroup.subtree_control && mkdir $d/run &&
  echo 64M > $d/run/memory.max && echo 0 > $d/run/memory.swap.max &&
  sh -c "echo \$\$ > $d/run/cgroup.procs && exec python3 -c \"\$0\"" "$1" &&
  echo "memory.peak $(cat $d/run/memory.peak); $(grep oom_kill $d/run/memory.events)"' \
  $CG/user-proof "$ALLOC"

say "tests/cgroup2, the hostile battery and spawn/fork-server agreement as root"
suite
root_rc=$?

say "tests/cgroup2 as uid $USER_ID with a delegated subtree"
open_home_for_user
delegate user-$USER_ID
# the battery's host folders under /var and /opt for its port, which the user cannot
# make: made by root and given to it, as tests/test_ordinary_user.py does
GRIDJUDGE_TEST_PORT=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export GRIDJUDGE_TEST_PORT
for folder in /var/gj_sessions_$GRIDJUDGE_TEST_PORT /opt/gj_corpus_$GRIDJUDGE_TEST_PORT; do
  mkdir "$folder" && chown $USER_ID:$USER_ID "$folder"
done
# the hostile battery and the fork server need namespaces for an ordinary user (issue 24,
# helper h2's branch): they join this run once isolation.py says the launcher has them
if $PY -c 'from pipeline.program import isolation as i; raise SystemExit(not i.ORDINARY_USER_NAMESPACES)'; then
  suite as_user $CG/user-$USER_ID
else
  say "uid $USER_ID: hostile battery and fork server left out (no ordinary-user namespaces yet)"
  as_user $CG/user-$USER_ID $PYTEST tests/cgroup2 --ignore=tests/cgroup2/test_no_user_namespaces.py
fi
user_rc=$?

if [ "$SUBSET" = full ]; then  # the tables of docs/sandbox.md
  say "gridjudge doctor as root"
  sh -c "$DOCTOR"
  say "gridjudge doctor as uid $USER_ID in a delegated subtree"
  delegate user-doctor
  as_user $CG/user-doctor sh -c "$DOCTOR"
fi
say "uid $USER_ID with user namespaces disabled (user.max_user_namespaces=0)"
sysctl -qw user.max_user_namespaces=0
delegate user-nons
[ "$SUBSET" = full ] && as_user $CG/user-nons sh -c "$DOCTOR"

say "as uid $USER_ID without user namespaces: grade refuses, --allow-unsandboxed grades"
timed as_user $CG/user-nons $PYTEST tests/cgroup2/test_no_user_namespaces.py
nons_rc=$?

say "pytest exit codes: root $root_rc, user $user_rc, no namespaces $nons_rc"
[ $root_rc -eq 0 ] && [ $user_rc -eq 0 ] && [ $nons_rc -eq 0 ]
echo $? >"$OUT/rc"
