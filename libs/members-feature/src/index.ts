export * from './bootstrap';
export * from './members.handlers';
export * from './secrets';
export * from './config';
export * from './mail/invite-mailer';
