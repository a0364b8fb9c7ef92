/** The migration report page at once, for tests (the admin port sends it in chunks: `reportPageChunks`). */
import { reportPageChunks } from '../../src/cutover/report-page.ts';

export const renderReportPage = (...args: Parameters<typeof reportPageChunks>): string => [...reportPageChunks(...args)].join('');
