export * from './private-postgres';
export * from './private-nats';
export * from './private-redis';
export * from './private-rabbitmq';
export * from './private-mosquitto';
export * from './server-tls';
export * from './private-kafka-mock';
export * from './kafka-tls-front';
