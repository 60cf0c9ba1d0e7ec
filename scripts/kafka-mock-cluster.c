/*
 * A Kafka-protocol test broker for the Kafka event sink's tests: librdkafka's mock cluster (Debian's
 * librdkafka, built by scripts/ensure-kafka-mock.sh). No real Apache Kafka runs on these machines
 * (docs/services/event-sinks.md, "Kafka"); this is the closest real thing: brokers on 127.0.0.1 that
 * speak the Kafka wire protocol over TCP (Metadata, Produce, Fetch, consumer groups; no SASL, no TLS,
 * no CreateTopics) and keep what is produced in memory while the process lives.
 *
 *   kafka-mock-cluster BROKERS [TOPIC:PARTITIONS ...]
 *
 * Prints the bootstrap servers on one line, then reads commands on stdin, one a line, answering "ok" or
 * "error ...": `topic NAME PARTITIONS`, `down ID`, `up ID` (a broker that refuses and drops connections
 * while down, brokers are numbered from 1). Exits when stdin closes, so it never outlives its test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static int create_topic(rd_kafka_mock_cluster_t *mc, const char *name, int partitions, int brokers) {
        rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mc, name, partitions, brokers < 3 ? brokers : 3);
        if (err) printf("error %s\n", rd_kafka_err2str(err));
        return err ? -1 : 0;
}

int main(int argc, char **argv) {
        char errstr[512], line[512], name[256];
        int brokers = argc > 1 ? atoi(argv[1]) : 1, n;
        if (brokers < 1) brokers = 1;
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof errstr);
        rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
        if (!rk) {
                fprintf(stderr, "librdkafka: %s\n", errstr);
                return 1;
        }
        rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, brokers);
        if (!mc) {
                fprintf(stderr, "the mock cluster did not start\n");
                return 1;
        }
        for (int i = 2; i < argc; i++) {
                if (sscanf(argv[i], "%255[^:]:%d", name, &n) != 2 || create_topic(mc, name, n, brokers)) {
                        fprintf(stderr, "bad topic %s\n", argv[i]);
                        return 1;
                }
        }
        printf("%s\n", rd_kafka_mock_cluster_bootstraps(mc));
        fflush(stdout);
        while (fgets(line, sizeof line, stdin)) {
                int id;
                if (sscanf(line, "topic %255s %d", name, &n) == 2) {
                        if (!create_topic(mc, name, n, brokers)) printf("ok\n");
                } else if (sscanf(line, "down %d", &id) == 1) {
                        printf(rd_kafka_mock_broker_set_down(mc, id) ? "error no broker %d\n" : "ok\n", id);
                } else if (sscanf(line, "up %d", &id) == 1) {
                        printf(rd_kafka_mock_broker_set_up(mc, id) ? "error no broker %d\n" : "ok\n", id);
                } else {
                        printf("error unknown command\n");
                }
                fflush(stdout);
        }
        rd_kafka_mock_cluster_destroy(mc);
        rd_kafka_destroy(rk);
        return 0;
}
