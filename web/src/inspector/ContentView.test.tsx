import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ContentView, ResourceContentsView } from './ContentView';

describe('ContentView', () => {
  it('shows annotations and a copy button on every block', () => {
    render(
      <ContentView
        content={[
          { type: 'text', text: 'hello', annotations: { audience: ['user'], priority: 0.9, lastModified: '2025-01-12T15:00:58Z' } },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', annotations: { audience: ['assistant'] } },
        ]}
      />,
    );
    expect(screen.getByText('for user')).toBeTruthy();
    expect(screen.getByText('priority 0.9')).toBeTruthy();
    expect(screen.getByText(/^modified /)).toBeTruthy();
    expect(screen.getByText('for assistant')).toBeTruthy();
    expect(screen.getAllByTestId('block-copy')).toHaveLength(2);
  });

  it('opens a resource link in the Resources view', () => {
    const open = vi.fn();
    render(<ContentView content={[{ type: 'resource_link', uri: 'demo://readme', name: 'readme' }]} onOpenResource={open} />);
    fireEvent.click(screen.getByTestId('resource-link-open'));
    expect(open).toHaveBeenCalledWith('demo://readme');
  });

  it('zooms an image', () => {
    render(<ContentView content={[{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }]} />);
    fireEvent.click(screen.getByTestId('result-image-zoom'));
    expect(screen.getByTestId('image-zoom')).toBeTruthy();
    expect(screen.getByRole('button', { name: '4×' })).toBeTruthy();
  });
});

describe('ResourceContentsView', () => {
  it('shows a text blob as text, and keeps binary as a download', () => {
    render(
      <ResourceContentsView
        contents={[
          { uri: 'demo://a.txt', mimeType: 'text/plain', blob: btoa('plain words here') },
          { uri: 'demo://b.bin', mimeType: 'application/octet-stream', blob: btoa('\u0000\u0001') },
        ]}
      />,
    );
    const blobs = screen.getAllByTestId('resource-blob');
    expect(blobs[0].getAttribute('data-shown')).toBe('text');
    expect(blobs[0].textContent).toContain('plain words here');
    expect(blobs[1].getAttribute('data-shown')).toBe('binary');
  });

  it('resolves relative Markdown links against the resource URI', () => {
    const open = vi.fn();
    render(<ResourceContentsView contents={[{ uri: 'demo://resource/static/document/architecture.md', mimeType: 'text/markdown', text: 'See [structure](structure.md).' }]} onOpenResource={open} />);
    const link = screen.getByTestId('md-resource-link');
    expect(link.getAttribute('href')).toBe('demo://resource/static/document/structure.md');
    fireEvent.click(link);
    expect(open).toHaveBeenCalledWith('demo://resource/static/document/structure.md');
  });
});
