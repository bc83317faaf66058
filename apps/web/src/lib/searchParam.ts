import { useSearchParams } from 'react-router';

/**
 * One query-string parameter as page state (the open drawer's section, say): its value ('' when absent) and a setter
 * that keeps the other parameters and replaces the history entry, so Back leaves the page rather than the drawer.
 */
export function useSearchParam(name: string): [string, (value: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = (value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return [params.get(name) ?? '', set];
}
