export { default as operationGenerator, type OperationOptions } from './operation/generator';
export { default as serviceGenerator, type ServiceOptions } from './service/generator';
