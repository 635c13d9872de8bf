// A server's tasks as the `['tasks', server]` query, newest first: fetched whenever the Tasks
// page mounts, patched in place by `task` events (`useQueryInvalidation`) and by a poll's
// answer, refetched on resync. Must not hold a task's fetched result (the card keeps it).
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { TaskView } from '../api/types.gen';
import { modernApi } from '../modern/api';

export const tasksKey = (server: string) => ['tasks', server] as const;

/** `task` first, in place of its older view. */
function mergeTask(list: TaskView[], task: TaskView): TaskView[] {
  return [task, ...list.filter((t) => t.taskId !== task.taskId)];
}

/** Puts a task's newer view into its server's list, if that list is loaded. */
export function patchTask(qc: QueryClient, task: TaskView): void {
  qc.setQueryData<TaskView[]>(tasksKey(task.server), (l) => l && mergeTask(l, task));
}

export function useTasks(server: string) {
  return useQuery({ queryKey: tasksKey(server), queryFn: () => modernApi.tasks(server), refetchOnMount: 'always' });
}
