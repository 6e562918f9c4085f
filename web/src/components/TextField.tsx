import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { type HTMLInputTypeAttribute, useId, useState } from 'react';

interface Props {
  label: string;
  testId: string;
  value: string;
  onChange: (v: string) => void;
  type?: HTMLInputTypeAttribute;
  placeholder?: string;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'tel';
  autoComplete?: string;
  maxLength?: number;
  invalid?: boolean;
}

/** A labelled native input (stable data-testid on the input itself for browser tests). */
export function TextField(p: Props) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const isPassword = p.type === 'password';
  return (
    <div className={p.invalid ? 'field invalid' : 'field'}>
      <label htmlFor={id} className="field-label">
        {p.label}
      </label>
      <div className="field-box">
        <input
          id={id}
          data-testid={p.testId}
          className="field-input"
          value={p.value}
          onChange={(e) => p.onChange(e.target.value)}
          type={isPassword && shown ? 'text' : (p.type ?? 'text')}
          placeholder={p.placeholder}
          inputMode={p.inputMode}
          autoComplete={p.autoComplete}
          maxLength={p.maxLength}
          aria-invalid={p.invalid || undefined}
        />
        {isPassword ? (
          <button type="button" className="field-eye" tabIndex={-1} onClick={() => setShown((s) => !s)} aria-label="toggle">
            {shown ? <EyeOutline /> : <EyeInvisibleOutline />}
          </button>
        ) : null}
      </div>
    </div>
  );
}
