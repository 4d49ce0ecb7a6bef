# Connects to the test's listener on 127.0.0.1:N; prints N only when that fails.
import socket
import sys

port = int(sys.stdin.read().split()[0])
try:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
except OSError as exc:
    print(f"no network: {exc}", file=sys.stderr)
    print(port)
else:
    print("connected")
