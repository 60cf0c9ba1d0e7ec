export * from './object-key';
export * from './object-storage';
export * from './content-type';
export * from './local-fs-storage';
export * from './s3-storage';
export * from './storage-config';
export * from './media-link';
