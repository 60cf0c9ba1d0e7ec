import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { TasksPage } from './TasksPage';

// The tasks routes are not admin-only: a member sees and changes the tasks of their phones' objects (and to-dos).
export const tasksPages: PageDef[] = [{ path: '/tasks', nav: 'Tasks', render: () => createElement(TasksPage) }];
