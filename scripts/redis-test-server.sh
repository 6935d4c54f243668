#!/usr/bin/env bash
# Starts (or stops) a throwaway Redis on a loopback port for tests. Usage: redis-test-server.sh start|stop
set -euo pipefail
PORT=${REDIS_TEST_PORT:-63799}
case "${1:-start}" in
  start)
    redis-cli -p "$PORT" ping >/dev/null 2>&1 || redis-server --port "$PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes >/dev/null
    for _ in $(seq 1 50); do redis-cli -p "$PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
    redis-cli -p "$PORT" ping >/dev/null 2>&1 || { echo "redis-server did not answer on port $PORT" >&2; exit 1; }
    echo "redis://127.0.0.1:$PORT"
    ;;
  stop)
    redis-cli -p "$PORT" shutdown nosave >/dev/null 2>&1 || true
    ;;
esac
