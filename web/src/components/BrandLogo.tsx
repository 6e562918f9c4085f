import { useState } from 'react';
import { useAppConfig } from '@/lib/config';

/** The configured logo, or the app's initial while none is configured (same box either way);
 * className sizes the box. */
export function BrandLogo({ className = 'auth-logo' }: { className?: string }) {
  const { data } = useAppConfig();
  const [broken, setBroken] = useState(false);
  return (
    <div className={`brand-logo ${className}`} data-testid="brand-logo">
      {data?.logo && !broken ? <img src={data.logo} alt={data.title} onError={() => setBroken(true)} /> : 'L'}
    </div>
  );
}
