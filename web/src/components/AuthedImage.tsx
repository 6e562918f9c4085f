import { useQuery } from '@tanstack/react-query';
import { Image, ImageViewer } from 'antd-mobile';
import { useEffect, useMemo } from 'react';
import { fileUrl } from '@/lib/api/client';
import { getSession } from '@/lib/session';

/** An uploaded image: files need the session headers, so they are fetched and shown as blobs. */
export function AuthedImage({ id, testId, width = 96, height = 96 }: { id: string; testId?: string; width?: number; height?: number }) {
  const q = useQuery({
    queryKey: ['file', id],
    queryFn: async ({ signal }) => {
      const { token, account } = getSession();
      const res = await fetch(fileUrl(id), { headers: { token, account }, signal });
      if (!res.ok) throw new Error(`file ${id}: HTTP ${res.status}`);
      return res.blob();
    },
    enabled: id !== '',
    staleTime: Infinity,
    retry: false,
  });
  const url = useMemo(() => (q.data ? URL.createObjectURL(q.data) : ''), [q.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return (
    <div data-testid={testId} className="authed-image" style={{ width, height }} onClick={() => url && ImageViewer.show({ image: url })}>
      {url ? <Image src={url} width={width} height={height} fit="cover" /> : null}
    </div>
  );
}
