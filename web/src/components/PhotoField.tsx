import { ImageUploader, type ImageUploadItem } from 'antd-mobile';
import { useState } from 'react';
import { api } from '@/lib/api/client';
import { toastMessage } from '@/lib/toast';
import { checkImageFile } from '@/lib/validation';

/**
 * One photo uploaded to /api/vue/files at once, with its preview; reports the file id ('' when removed).
 * A parent that must clear it (a proof the server refused) remounts it with a new key.
 */
export function PhotoField(p: { label: string; testId: string; invalid: boolean; hint?: string; onChange: (fileId: string) => void }) {
  const [files, setFiles] = useState<ImageUploadItem[]>([]);
  return (
    <div className={p.invalid ? 'field invalid photo-field' : 'field photo-field'}>
      <div className="field-label">{p.label}</div>
      <ImageUploader
        data-testid={p.testId}
        className="proof-uploader"
        value={files}
        maxCount={1}
        accept="image/jpeg,image/png,image/webp"
        beforeUpload={(file) => {
          const bad = checkImageFile(file);
          if (bad) {
            toastMessage(bad);
            return null;
          }
          return file;
        }}
        upload={async (file) => {
          const { id } = await api.upload(file);
          p.onChange(id);
          return { url: URL.createObjectURL(file), extra: { id } };
        }}
        onChange={(items) => {
          setFiles(items);
          const done = items[0]?.extra as { id?: string } | undefined;
          p.onChange(done?.id ?? '');
        }}
      />
      {p.hint && <div className="proof-hint">{p.hint}</div>}
    </div>
  );
}
