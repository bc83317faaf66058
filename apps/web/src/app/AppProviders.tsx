import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PromptHost } from '../components/PromptDialog';
import { ChunkLoadPrompt } from './ChunkLoadPrompt';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // The request client already reports every failure; retrying would repeat the dialog.
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
}

/**
 * The root providers: TanStack Query and the two global dialogs (prompt, chunk reload). Deliberately free of antd
 * so the public portal stays light; antd pages get their providers from the AntdShell layout route.
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <PromptHost />
      <ChunkLoadPrompt />
    </QueryClientProvider>
  );
}
