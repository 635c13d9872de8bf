// A server's skills are one of its `['list', server]` queries: a new connection (its `status`
// event) fetches them again, as it does its tools; and a failed listing offers a retry. A
// server that does not declare the extension is not asked.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ServerView } from '../api/types.gen';
import type { Skill } from '../modern/api';
import { SERVERS_KEY } from '../servers/store';
import { fail, fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { SkillsPage } from './SkillsPage';

const SKILLS = '/api/servers/srv/skills';
const withCaps = (capabilities: unknown) =>
  ({ config: { name: 'srv', type: 'stdio', command: 'x' }, status: { state: 'connected' }, info: { protocolVersion: '2026-07-28', capabilities }, stderr: [] }) as unknown as ServerView;
const server = withCaps({ extensions: { 'io.modelcontextprotocol/skills': {} } });
const skill = (name: string): Skill => ({ uri: `skill://${name}/SKILL.md`, frontmatter: { name, description: `${name} things` }, resources: 'dynamic' });
const seed = (qc: QueryClient) => qc.setQueryData(SERVERS_KEY, [server]);

const api = fakeApiEachTest();

describe('SkillsPage', () => {
  it("fetches the skills again when the server connects again, not on another server's status", async () => {
    api.on('GET', SKILLS, ok({ skills: [skill('pdf')] }), ok({ skills: [skill('pdf'), skill('slides')] }));
    const { emit } = renderWithQuery(<SkillsPage />, seed);
    await screen.findByTestId('skill-item-pdf');
    emit({ type: 'status', server: 'other', status: { state: 'connected' } });
    emit({ type: 'status', server: 'srv', status: { state: 'connected' } });
    await screen.findByTestId('skill-item-slides');
    expect(api.count('GET', SKILLS)).toBe(2);
  });

  it('does not ask a server that does not declare the extension, and says so without an error', async () => {
    renderWithQuery(<SkillsPage />, (qc) => qc.setQueryData(SERVERS_KEY, [withCaps({ tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } })]));
    expect(await screen.findByTestId('no-skills-extension')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.count('GET', SKILLS)).toBe(0);
  });

  it('shows why the listing failed and lists them on Retry', async () => {
    api.on('GET', SKILLS, fail(502, 'skills/list failed: method not found'), ok({ skills: [skill('pdf')] }));
    renderWithQuery(<SkillsPage />, seed);
    expect(await screen.findByText(/method not found/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /retry/i }));
    await screen.findByTestId('skill-item-pdf');
    await waitFor(() => expect(api.count('GET', SKILLS)).toBe(2));
  });
});
