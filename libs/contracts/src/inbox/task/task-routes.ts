import type { RouteContract } from '../../http/define-route';
import { CreateTaskRoute } from '../create-task/create-task.contract';
import { DeleteTaskRoute } from '../delete-task/delete-task.contract';
import { GetTaskRoute } from '../get-task/get-task.contract';
import { ListTasksRoute } from '../list-tasks/list-tasks.contract';
import { UpdateTaskRoute } from '../update-task/update-task.contract';

export * from './task-fields';
export * from '../create-task/create-task.contract';
export * from '../list-tasks/list-tasks.contract';
export * from '../get-task/get-task.contract';
export * from '../update-task/update-task.contract';
export * from '../delete-task/delete-task.contract';

/** The task routes (issue 17 item 4), part of INBOX_ROUTES. */
export const TASK_ROUTES: readonly RouteContract[] = [ListTasksRoute, CreateTaskRoute, GetTaskRoute, UpdateTaskRoute, DeleteTaskRoute];
