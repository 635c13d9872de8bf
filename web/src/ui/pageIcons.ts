// Each page's icon: the navigation, the command palette and the page's empty states draw the same one.
import { BookOpen, LayoutGrid, FileText, FlaskConical, KeyRound, ListChecks, MessageSquareText, MessagesSquare, ScrollText, Server, Settings, ShieldCheck, Smartphone, Wrench, type LucideIcon } from 'lucide-react';
import type { Page } from './route';

export const PAGE_ICONS: Record<Page, LucideIcon> = { servers: Server, tools: Wrench, resources: FileText, prompts: MessageSquareText, tasks: ListChecks, skills: BookOpen, playground: Smartphone, apps: LayoutGrid, chat: MessagesSquare, evals: FlaskConical, check: ShieldCheck, logs: ScrollText, oauth: KeyRound, settings: Settings };
