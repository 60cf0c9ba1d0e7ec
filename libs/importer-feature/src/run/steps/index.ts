import type { Step } from '../import-job';
import { chatsStep, messagesStep, reactionsStep } from './history-step';
import { phonesStep } from './phones-step';
import {
  contactsStep,
  customPropertiesStep,
  documentsStep,
  faqsStep,
  labelsStep,
  notesStep,
  tasksStep,
  ticketsStep,
  webhooksStep,
  workflowsStep,
} from './setup-steps';

/** The steps of a run, in the order each one's ids are needed by the next (IMPORT_RESOURCES). */
export const IMPORT_STEPS: readonly Step[] = [
  phonesStep,
  labelsStep,
  customPropertiesStep,
  contactsStep,
  chatsStep,
  messagesStep,
  reactionsStep,
  ticketsStep,
  notesStep,
  tasksStep,
  faqsStep,
  documentsStep,
  webhooksStep,
  workflowsStep,
];
