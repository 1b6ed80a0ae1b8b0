/**
 * The sign-up throttle (../sign-ups.ts) in the SQLite file: each step one IMMEDIATE transaction,
 * so the check and the count are atomic across every process sharing the file.
 */
import type Database from 'better-sqlite3';
import { refusal } from '../sign-ins.js';
import { SIGN_UP_LIMITS, type SignUpAttempt, type SignUpLimiter } from '../sign-ups.js';

interface AddressRow {
  window_start: number;
  sign_ups: number;
}

const ALLOWED: SignUpAttempt = { allowed: true };

export class SqliteSignUps implements SignUpLimiter {
  private readonly beginStep: Database.Transaction<(address: string, nowMs: number) => SignUpAttempt>;
  private readonly giveBack: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    const { addressSignUps, addressWindowMs } = SIGN_UP_LIMITS;
    const address = db.prepare<[string], AddressRow>('SELECT window_start, sign_ups FROM sign_up_addresses WHERE address = ?');
    const count = db.prepare<[string, number, number]>(
      'INSERT OR REPLACE INTO sign_up_addresses (address, window_start, sign_ups) VALUES (?, ?, ?)',
    );
    // Windows past their time are deleted as sign-ups come, so the table holds only live counters.
    const forget = db.prepare<[number]>('DELETE FROM sign_up_addresses WHERE window_start <= ?');
    this.giveBack = db.prepare<[string]>('UPDATE sign_up_addresses SET sign_ups = sign_ups - 1 WHERE address = ? AND sign_ups > 0');
    this.beginStep = db.transaction((addressName: string, nowMs: number): SignUpAttempt => {
      forget.run(nowMs - addressWindowMs);
      const window = address.get(addressName);
      if (window && window.sign_ups >= addressSignUps) return refusal(window.window_start + addressWindowMs, nowMs);
      count.run(addressName, window?.window_start ?? nowMs, (window?.sign_ups ?? 0) + 1);
      return ALLOWED;
    });
  }

  async begin(address: string, nowMs: number): Promise<SignUpAttempt> {
    return this.beginStep.immediate(address, nowMs);
  }

  async failed(address: string): Promise<void> {
    this.giveBack.run(address);
  }
}
