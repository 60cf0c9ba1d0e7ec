import { Errors } from '@mapi/contracts';

/** The same answer for a missing, deleted and another organization's workflow. */
export const workflowNotFound = () => Errors.notFound('Workflow not found');
export const runNotFound = () => Errors.notFound('Workflow run not found');
