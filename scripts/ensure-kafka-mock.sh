#!/usr/bin/env bash
# Builds the Kafka sink tests' broker, librdkafka's mock cluster (scripts/kafka-mock-cluster.c), against
# Debian's librdkafka (librdkafka-dev and gcc are installed with apt when missing), and prints the
# binary's path. No Apache Kafka can be installed on these machines (docs/services/event-sinks.md,
# "Kafka"): this Kafka-protocol test broker is the closest real thing. Quiet when it is already built.
# KAFKA_MOCK_BIN points the tests at another build; then nothing is installed.
set -euo pipefail
if [ -n "${KAFKA_MOCK_BIN:-}" ]; then
  [ -x "$KAFKA_MOCK_BIN" ] || { echo "KAFKA_MOCK_BIN=$KAFKA_MOCK_BIN is not an executable" >&2; exit 1; }
  echo "$KAFKA_MOCK_BIN"
  exit 0
fi
src="$(cd "$(dirname "$0")" && pwd)/kafka-mock-cluster.c"
out="${XDG_CACHE_HOME:-$HOME/.cache}/mapi/kafka-mock-cluster"
if [ ! -f /usr/include/librdkafka/rdkafka_mock.h ] || ! command -v gcc >/dev/null; then
  if ! command -v apt-get >/dev/null; then echo "no librdkafka-dev and no apt-get: install librdkafka (with its headers) and gcc" >&2; exit 1; fi
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "installing librdkafka-dev and gcc (apt)…" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends librdkafka-dev gcc libc6-dev >/dev/null
fi
if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
  mkdir -p "$(dirname "$out")"
  gcc -O2 -Wall -o "$out.tmp" "$src" -lrdkafka >&2
  mv "$out.tmp" "$out"
fi
echo "$out"
