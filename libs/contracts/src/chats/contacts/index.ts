export * from './contact.schema';
export * from './list-contacts.contract';
export * from './get-contact.contract';
export * from './update-contact.contract';
export * from './update-contact-labels.contract';
export * from './create-contact.contract';
