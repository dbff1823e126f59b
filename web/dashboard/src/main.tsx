import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/client';
import { keys } from './api/keys';
import { App } from './app/App';
import { cssVariablesResolver, theme } from './app/theme';

// A 401 anywhere means the session is gone: re-asking "who am I" lets the shell send us to /login.
const sessionLost = (error: unknown, key?: readonly unknown[]) => {
  if (error instanceof ApiError && error.status === 401 && key?.[0] !== keys.me.all[0]) {
    void queryClient.invalidateQueries({ queryKey: keys.me.all });
  }
};

// Server state lives in the query cache only (socket events update it; no second store).
const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => sessionLost(error, query.queryKey) }),
  mutationCache: new MutationCache({ onError: (error) => sessionLost(error, ['mutation']) }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
