#!/bin/bash
# One KRaft node on $KAFKA_HOST:$KAFKA_PORT (controller on $KAFKA_CONTROLLER_PORT), data in
# /var/lib/kafka/data; the settings of deploy/servers/servers.sh and docker-compose.yml's kafka.
set -euo pipefail
conf=/tmp/server.properties
cat > "$conf" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@${KAFKA_HOST}:${KAFKA_CONTROLLER_PORT}
listeners=PLAINTEXT://${KAFKA_HOST}:${KAFKA_PORT},CONTROLLER://${KAFKA_HOST}:${KAFKA_CONTROLLER_PORT}
advertised.listeners=PLAINTEXT://${KAFKA_ADVERTISED_HOST:-$KAFKA_HOST}:${KAFKA_PORT}
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=/var/lib/kafka/data
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
offsets.retention.minutes=20160
auto.create.topics.enable=false
num.network.threads=2
num.io.threads=2
PROPS
cp="/opt/kafka/libs/*"
java -cp "$cp" kafka.tools.StorageTool format -t "$CLUSTER_ID" -c "$conf" --ignore-formatted >/dev/null
# exec: SIGTERM reaches the broker, which shuts down cleanly.
exec java -Xms256m -Xmx${KAFKA_HEAP_MAX:-768m} -cp "$cp" -Dlog4j.configuration=file:/opt/kafka/log4j.properties kafka.Kafka "$conf"
