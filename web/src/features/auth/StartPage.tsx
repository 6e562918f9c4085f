import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { BrandLogo } from '@/components/BrandLogo';

// Line icons drawn inline: the welcome page is the first route, so it carries no icon library.
const icon = (d: string) =>
  function Icon() {
    return (
      <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
        <path d={d} />
      </svg>
    );
  };
const ChartIcon = icon('M3 20h18M6 16l4-5 3 3 6-8');
const LedgerIcon = icon('M5 3h11l3 3v15H5zM9 9h7M9 13h7M9 17h4');
const ShieldIcon = icon('M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM8.5 12l2.5 2.5 4.5-5');

const SLIDES = [
  { Icon: ChartIcon, title: 'start.slide1Title', text: 'start.slide1Text' },
  { Icon: LedgerIcon, title: 'start.slide2Title', text: 'start.slide2Text' },
  { Icon: ShieldIcon, title: 'start.slide3Title', text: 'start.slide3Text' },
] as const;

/** Welcome carousel: skip, next, register, I have an account, contact us (hours and online service). */
export default function StartPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const track = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const last = index === SLIDES.length - 1;

  const go = (i: number) => {
    setIndex(i);
    const el = track.current;
    // jsdom has no scrollTo on elements.
    if (el && typeof el.scrollTo === 'function') el.scrollTo({ left: i * el.clientWidth, behavior: 'smooth' });
  };

  return (
    <div className="welcome" data-testid="welcome">
      <div className="welcome-top">
        <BrandLogo className="welcome-logo" />
        <button type="button" className="welcome-skip" data-testid="welcome-skip" onClick={() => void navigate('/login/login')}>
          {t('start.skip')}
        </button>
      </div>
      <div
        className="welcome-track"
        ref={track}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.clientWidth > 0) setIndex(Math.round(el.scrollLeft / el.clientWidth));
        }}
      >
        {SLIDES.map((s, i) => (
          <section className="welcome-slide" key={s.title} data-testid={`welcome-slide-${i}`} aria-hidden={i !== index}>
            <div className="welcome-art" aria-hidden>
              <s.Icon />
            </div>
            <h2>{t(s.title)}</h2>
            <p>{t(s.text)}</p>
          </section>
        ))}
      </div>
      <div className="welcome-dots" aria-hidden>
        {SLIDES.map((s, i) => (
          <span key={s.title} className={i === index ? 'dot active' : 'dot'} />
        ))}
      </div>
      <div className="welcome-actions">
        {/* Plain buttons: the welcome page is the first route and carries no UI kit. */}
        <button type="button" className="welcome-btn welcome-next" data-testid="welcome-next" disabled={last} onClick={() => go(index + 1)}>
          {t('start.next')}
        </button>
        <button type="button" className="welcome-btn welcome-register" data-testid="welcome-register" onClick={() => void navigate('/login/register')}>
          {t('start.register')}
        </button>
        <button type="button" className="welcome-btn welcome-login" data-testid="welcome-login" onClick={() => void navigate('/login/login')}>
          {t('start.haveAccount')}
        </button>
        {/* Quotes are public: visitors browse the market, and log in only for account actions. */}
        <button type="button" className="welcome-contact" data-testid="welcome-market" onClick={() => void navigate('/market/market')}>
          {t('start.browseMarket')}
        </button>
        <button
          type="button"
          className="welcome-contact"
          data-testid="welcome-contact"
          onClick={() =>
            // The hours, and the way to online service (a member's chat; login first without a session).
            void import('antd-mobile/es/components/dialog').then(({ default: Dialog }) =>
              Dialog.show({
                title: t('start.contactUs'),
                content: t('start.contactText'),
                closeOnAction: true,
                actions: [
                  [
                    { key: 'ok', text: t('common.confirm') },
                    { key: 'chat', text: t('start.onlineService'), bold: true, onClick: () => void navigate('/chat') },
                  ],
                ],
              }),
            )
          }
        >
          {t('start.contactUs')}
        </button>
      </div>
    </div>
  );
}
