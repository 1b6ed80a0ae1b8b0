/**
 * The sign-in throttle (../sign-ins.ts) in the SQLite file. Each step is one IMMEDIATE
 * transaction: it takes the file's write lock before reading, so the check and the count are
 * atomic across every process sharing the file, and the counters outlive a restart.
 */
import type Database from 'better-sqlite3';
import { lockMs, refusal, SIGN_IN_LIMITS, type SignInAttempt, type SignInLimiter } from '../sign-ins.js';

interface AccountRow {
  failures: number;
  locked_until: number;
  last_failure: number;
}

interface AddressRow {
  window_start: number;
  failures: number;
}

const ALLOWED: SignInAttempt = { allowed: true };

export class SqliteSignIns implements SignInLimiter {
  private readonly beginStep: Database.Transaction<(account: string, address: string, nowMs: number) => SignInAttempt>;
  private readonly succeededStep: Database.Transaction<(account: string, address: string) => void>;

  constructor(db: Database.Database) {
    const { forgetMs, addressFailures, addressWindowMs } = SIGN_IN_LIMITS;
    const account = db.prepare<[string], AccountRow>('SELECT failures, locked_until, last_failure FROM sign_in_accounts WHERE account = ?');
    const address = db.prepare<[string], AddressRow>('SELECT window_start, failures FROM sign_in_addresses WHERE address = ?');
    const countAccount = db.prepare<[string, number, number, number]>(
      'INSERT OR REPLACE INTO sign_in_accounts (account, failures, locked_until, last_failure) VALUES (?, ?, ?, ?)',
    );
    const countAddress = db.prepare<[string, number, number]>(
      'INSERT OR REPLACE INTO sign_in_addresses (address, window_start, failures) VALUES (?, ?, ?)',
    );
    // Rows past their time are deleted as attempts come, so the tables hold only live counters.
    const forgetAccounts = db.prepare<[number]>('DELETE FROM sign_in_accounts WHERE last_failure <= ?');
    const forgetAddresses = db.prepare<[number]>('DELETE FROM sign_in_addresses WHERE window_start <= ?');
    const clearAccount = db.prepare<[string]>('DELETE FROM sign_in_accounts WHERE account = ?');
    const giveBack = db.prepare<[string]>('UPDATE sign_in_addresses SET failures = failures - 1 WHERE address = ? AND failures > 0');

    this.beginStep = db.transaction((accountName: string, addressName: string, nowMs: number): SignInAttempt => {
      forgetAccounts.run(nowMs - forgetMs);
      forgetAddresses.run(nowMs - addressWindowMs);
      const failed = account.get(accountName);
      if (failed && failed.locked_until > nowMs) return refusal(failed.locked_until, nowMs);
      const window = address.get(addressName);
      if (window && window.failures >= addressFailures) return refusal(window.window_start + addressWindowMs, nowMs);
      const failures = (failed?.failures ?? 0) + 1;
      const lock = lockMs(failures);
      countAccount.run(accountName, failures, lock > 0 ? nowMs + lock : 0, nowMs);
      countAddress.run(addressName, window?.window_start ?? nowMs, (window?.failures ?? 0) + 1);
      return ALLOWED;
    });
    this.succeededStep = db.transaction((accountName: string, addressName: string) => {
      clearAccount.run(accountName);
      giveBack.run(addressName);
    });
  }

  async begin(account: string, address: string, nowMs: number): Promise<SignInAttempt> {
    return this.beginStep.immediate(account, address, nowMs);
  }

  async succeeded(account: string, address: string): Promise<void> {
    this.succeededStep.immediate(account, address);
  }
}
