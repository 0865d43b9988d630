import { Inject, Injectable } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '../common/config.js';
import type { AgentInfo } from '../queue/agent-status.store.js';
import { DeliveryService, type DeliveredCommand } from '../queue/delivery.service.js';
import { Waiters } from './waiters.js';

/** A claim with the long poll of SPEC 6.2: claim; while nothing and time left, wait for new work and claim again. */
@Injectable()
export class ClaimService {
  constructor(
    private readonly delivery: DeliveryService,
    private readonly waiters: Waiters,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  async claim(info: AgentInfo, waitSeconds: number, signal?: AbortSignal): Promise<{ command: DeliveredCommand | null; settingsVersion: number }> {
    const deadline = Date.now() + Math.min(waitSeconds, this.config.claimMaxWaitSeconds) * 1000;
    let answer = await this.delivery.claim(info);
    while (!answer.command && Date.now() < deadline && !signal?.aborted) {
      if (!(await this.waiters.wait(deadline - Date.now(), signal))) break;
      answer = await this.delivery.claim(info);
    }
    return answer;
  }
}
