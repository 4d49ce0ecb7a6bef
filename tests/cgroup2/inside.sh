#!/bin/sh
# Runs inside the cgroup v2 VM as root (vm.sh boots it), from the repository root.
# First the bare kernel interface, then tests/cgroup2 as root (slots under the unified
# root) and as an ordinary user (uid 1000) given a delegated subtree, made as systemd's
# Delegate=yes makes one: a cgroup whose directory and cgroup.procs, cgroup.threads and
# cgroup.subtree_control belong to the user, the user's process already in it.
OUT=$1
HOST_CPU=$2  # the CPU seconds of calibrate.py's work on the host (vm.sh)
# which parts: full, ci (what .ci/run runs), or steps separated by commas: root:PART and
# user:PART for PART sandbox (tests/cgroup2), hostile (the battery spawned), forkserver
# (the battery's fork-server cases, tests/test_forkserver.py, spawn and fork server
# agreeing on spot's golden sample); doctor (`gridjudge doctor` as root and as the user);
# nons (the user without user namespaces: doctor if asked for, then the refusal test).
# They run in that order whatever the order given.
SUBSET=${3:-full}
FULL=root:sandbox,root:hostile,root:forkserver,user:sandbox,user:hostile,user:forkserver,plain:hostile,plain:forkserver,doctor,nons
# ci: the v2 slots as root and as the delegated user, the battery and the fork-server
# attacks served as that user, the refusal; 461 s with the boot on 2026-12-05 (the
# rest, root's battery spawned and served and the user's spawned, adds about 6 minutes)
CI=root:sandbox,user:sandbox,user:forkserver,nons
case $SUBSET in full) SUBSET=$FULL ;; ci) SUBSET=$CI ;; esac
CG=/sys/fs/cgroup
PY=.venv/bin/python
USER_ID=1000
export PYTHONDONTWRITEBYTECODE=1 CI=true GRIDJUDGE_CACHE=$OUT/cache
PYTEST="$PY -m pytest -q -p no:cacheprovider"
AGREEMENT="tests/test_forkserver_agreement.py::test_both_runners_give_the_same_verdicts[spot]"
has() {  # has STEP: whether SUBSET asks for STEP
  case ",$SUBSET," in *",$1,"*) return 0 ;; esac
  return 1
}
step() {  # step PART RUNNER...: one part through RUNNER (nothing, or as_user CGROUP)
  part=$1
  shift
  case $part in
    sandbox) timed "$@" $PYTEST tests/cgroup2 --ignore=tests/cgroup2/test_no_user_namespaces.py ;;
    hostile) timed "$@" $PYTEST tests/test_hostile.py -k "not fork-server and not batch and not bwrap" ;;
    forkserver) timed "$@" $PYTEST tests/test_hostile.py tests/test_forkserver.py "$AGREEMENT" \
      -k "fork-server or test_forkserver.py or spot" ;;
  esac
}
steps() {  # steps WHO RUNNER...: the parts asked for WHO (root, user or plain), 1 if any failed
  who=$1
  shift
  failed=0
  for part in sandbox hostile forkserver; do
    has "$who:$part" || continue
    say "$who: $part"
    step "$part" "$@" || failed=1
  done
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
as_uid() { setpriv --reuid=$USER_ID --regid=$USER_ID --clear-groups "$@"; }
open_dir() {  # open_dir DIR: a 0755 tmpfs over DIR, its entries bound back (in the VM only)
  under=$OUT/under.$(echo "$1" | tr / _)
  mkdir "$under" && mount --bind "$1" "$under"
  mount -t tmpfs -o mode=0755 tmpfs "$1"
  for entry in "$under"/.* "$under"/*; do
    name=${entry##*/}
    case $name in .|..) continue ;; esac
    if [ -L "$entry" ]; then ln -s "$(readlink "$entry")" "$1/$name"
    elif [ -d "$entry" ]; then mkdir "$1/$name" && mount --bind "$entry" "$1/$name"
    elif [ -e "$entry" ]; then : >"$1/$name" && mount --bind "$entry" "$1/$name"
    fi
  done
  say "uid $USER_ID cannot enter $1: a 0755 tmpfs over it here, its entries bound back"
}
open_for_user() {  # open_for_user PATH: every folder on the way to PATH made enterable by uid 1000
  # (the checkout may sit in a 0700 folder, such as a clone under mktemp -d, and the
  # venv's interpreter under root's home with pyenv; the host's modes stay as they are)
  dir=
  rest=${1#/}
  while [ -n "$rest" ]; do
    dir=$dir/${rest%%/*}
    case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac
    [ -d "$dir" ] || break
    as_uid test -x "$dir" || open_dir "$dir"
  done
}
open_for_user_or_fail() {  # the interpreter and the checkout, or one line and a failed run
  open_for_user "$(readlink -f $PY)"
  open_for_user "$PWD/tests"
  as_uid test -r "$PWD/pyproject.toml" -a -x "$(readlink -f $PY)" && return 0
  say "uid $USER_ID still cannot read $PWD/pyproject.toml or run $(readlink -f $PY)"
  return 1
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

say "root: the parts asked for ($SUBSET)"
steps root
root_rc=$?

user_rc=0
if has user:sandbox || has user:hostile || has user:forkserver || has plain:hostile ||
  has plain:forkserver || has doctor || has nons; then
  open_for_user_or_fail || user_rc=1
fi
if has user:sandbox || has user:hostile || has user:forkserver; then
  say "uid $USER_ID with a delegated subtree"
  delegate user-$USER_ID
  # the battery's host folders under /var and /opt for its port, which the user cannot
  # make: made by root and given to it, as tests/test_ordinary_user.py does
  GRIDJUDGE_TEST_PORT=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  export GRIDJUDGE_TEST_PORT
  for folder in /var/gj_sessions_$GRIDJUDGE_TEST_PORT /opt/gj_corpus_$GRIDJUDGE_TEST_PORT; do
    mkdir "$folder" && chown $USER_ID:$USER_ID "$folder"
  done
  steps user as_user $CG/user-$USER_ID
  user_rc=$?
fi
plain_rc=0
if has plain:hostile || has plain:forkserver; then
  say "uid $USER_ID without a delegated subtree (a cgroup of root's): the launcher's watchdog"
  mkdir $CG/user-plain
  GRIDJUDGE_TEST_PORT=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  export GRIDJUDGE_TEST_PORT
  for folder in /var/gj_sessions_$GRIDJUDGE_TEST_PORT /opt/gj_corpus_$GRIDJUDGE_TEST_PORT; do
    mkdir "$folder" && chown $USER_ID:$USER_ID "$folder"
  done
  as_user $CG/user-plain sh -c "$DOCTOR" | grep -i -e isolation -e cgroup -e memory
  steps plain as_user $CG/user-plain
  plain_rc=$?
fi

if has doctor; then  # the tables of docs/sandbox.md
  say "gridjudge doctor as root"
  sh -c "$DOCTOR"
  say "gridjudge doctor as uid $USER_ID in a delegated subtree"
  delegate user-doctor
  as_user $CG/user-doctor sh -c "$DOCTOR"
fi
nons_rc=0
if has nons; then
  say "uid $USER_ID with user namespaces disabled (user.max_user_namespaces=0)"
  sysctl -qw user.max_user_namespaces=0
  delegate user-nons
  has doctor && as_user $CG/user-nons sh -c "$DOCTOR"
  say "as uid $USER_ID without user namespaces: grade refuses, --allow-unsandboxed grades"
  timed as_user $CG/user-nons $PYTEST tests/cgroup2/test_no_user_namespaces.py
  nons_rc=$?
fi

say "pytest exit codes: root $root_rc, user $user_rc, user without a subtree $plain_rc, no namespaces $nons_rc"
[ $root_rc -eq 0 ] && [ $user_rc -eq 0 ] && [ $plain_rc -eq 0 ] && [ $nons_rc -eq 0 ]
echo $? >"$OUT/rc"
