import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rules of eslint.config.js, run on small files as if they sat in src: a boundary break
// must fail `npm run lint` (and so `make test`), not only read as a convention in the README.
const web = resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: web });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(web, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layer rules', () => {
  it('refuses a feature importing another feature, by alias or by path', async () => {
    expect(await problems('src/features/funds/probe.ts', "import { QuoteList } from '@/features/market/QuoteList';\nexport const x = QuoteList;\n")).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: feature funds may not import feature market/),
    ]);
    expect(await problems('src/features/funds/probe.ts', "export const x = () => import('../trade/ticket');\n")).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: feature funds may not import feature trade/),
    ]);
  });

  it('refuses lower layers importing higher ones', async () => {
    expect(await problems('src/lib/probe.ts', "import { routes } from '@/app/router';\nexport const x = routes;\n")).toEqual([
      expect.stringMatching(/lib .*may not import app/),
    ]);
    expect(await problems('src/domain/market/probe.ts', "import { QuoteRow } from '@/components/market/QuoteRow';\nexport const x = QuoteRow;\n")).toEqual([
      expect.stringMatching(/domain market may not import components/),
    ]);
    expect(await problems('src/components/probe.ts', "import { routes } from '@/features/trade/routes';\nexport const x = routes;\n")).toEqual([
      expect.stringMatching(/components .*may not import feature trade/),
    ]);
    expect(await problems('src/features/trade/probe.ts', "import { render } from '@/test/render';\nexport const x = render;\n")).toEqual([
      expect.stringMatching(/feature trade may not import test/),
    ]);
  });

  it('lets a feature import itself and the shared layers, and the app every feature', async () => {
    expect(
      await problems(
        'src/features/trade/probe.ts',
        "import { validateTicket } from './ticket';\nimport { api } from '@/lib/api/client';\nimport { Page } from '@/components/Page';\nimport { useTradeT } from '@/domain/trade/texts';\nexport const x = [validateTicket, api, Page, useTradeT];\n",
      ),
    ).toEqual([]);
    expect(await problems('src/app/probe.ts', "import { routes } from '@/features/trade/routes';\nexport const x = routes;\n")).toEqual([]);
  });
});
