/**
 * H.264 access units (Annex B, SPS and PPS in band) into pictures with WebCodecs' VideoDecoder,
 * which Chromium and Electron offer in a secure context (http://127.0.0.1 and file:// are). Each
 * chunk carries its frame's seq as timestamp, so a decoded picture says which frame it is. After a
 * decoder error it waits for the next key frame; frames it will not decode are reported done at once,
 * so the host's window for this viewer never fills with frames that will never be shown.
 */
import type { WireFrame } from '../../../../shared/screen-wire';

export interface DecodedHandlers {
  /** A picture to show; the handler closes it. */
  picture(picture: VideoFrame, seq: number): void;
  /** Frames up to `seq` will never become pictures. */
  dropped(seq: number): void;
  error(message: string): void;
}

export function canDecodeH264(): boolean {
  return typeof VideoDecoder !== 'undefined' && typeof EncodedVideoChunk !== 'undefined';
}

export class H264Decoder {
  private decoder: VideoDecoder | undefined;
  private codec: string | undefined;
  private needKey = true;
  private lastQueued = -1;

  constructor(private readonly handlers: DecodedHandlers) {}

  decode(frame: WireFrame, codec: string | undefined): void {
    if (!codec) return this.handlers.dropped(frame.seq);
    if (codec !== this.codec || !this.decoder || this.decoder.state === 'closed') this.configure(codec);
    const decoder = this.decoder;
    if (!decoder || (this.needKey && !frame.key)) return this.handlers.dropped(frame.seq);
    this.needKey = false;
    this.lastQueued = frame.seq;
    try {
      decoder.decode(
        new EncodedVideoChunk({ type: frame.key ? 'key' : 'delta', timestamp: frame.seq, data: frame.data }),
      );
    } catch (e) {
      this.fail(e);
    }
  }

  close(): void {
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = undefined;
  }

  private configure(codec: string): void {
    this.close();
    this.codec = codec;
    this.needKey = true;
    const decoder = new VideoDecoder({
      output: (picture) => this.handlers.picture(picture, picture.timestamp),
      error: (e) => this.fail(e),
    });
    try {
      decoder.configure({ codec, optimizeForLatency: true });
      this.decoder = decoder;
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    this.handlers.error(e instanceof Error ? e.message : String(e));
    this.close();
    this.needKey = true;
    if (this.lastQueued >= 0) this.handlers.dropped(this.lastQueued);
  }
}
