import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';

/**
 * "Work may be available": emitted after a transaction that queued commands has committed. The Agent
 * module's long poll listens; the queue never calls the agent side directly.
 */
@Injectable()
export class QueueEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  workAvailable(): void {
    this.emitter.emit('work');
  }

  onWork(listener: () => void): void {
    this.emitter.on('work', listener);
  }
}
