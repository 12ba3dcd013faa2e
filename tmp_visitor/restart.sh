#!/bin/bash
cd /work/main
if [ -f /tmp/visitor_server.pid ]; then kill -- -$(cat /tmp/visitor_server.pid) 2>/dev/null; sleep 1; fi
PORT=8300 HOST=127.0.0.1 DENO_KV_PATH=:memory: DEMO_DATA=1 ADMIN_USERNAME=admin ADMIN_PASSWORD=admin-test-password setsid node_modules/.bin/deno run -A main.ts > /tmp/visitor_server.log 2>&1 &
echo $! > /tmp/visitor_server.pid
for i in $(seq 1 60); do curl -sf http://127.0.0.1:8300/healthz >/dev/null && break; sleep 0.5; done
tail -3 /tmp/visitor_server.log
