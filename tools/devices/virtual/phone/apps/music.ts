/** Music: the owner of the phone's media session; its buttons and `cmd media_session` drive the same state. */
import { rect, type UiNode } from '../ui';
import type { AppContext, VirtualApp } from './app';
import { TITLE_BOTTOM, button, textView, titleBar } from './widgets';

export const MUSIC_PACKAGE = 'com.android.music';

export function createMusicApp(): VirtualApp {
  return {
    info: {
      packageName: MUSIC_PACKAGE,
      label: 'Music',
      system: true,
      versionName: '13',
      versionCode: 33,
      activities: [`${MUSIC_PACKAGE}.MusicActivity`],
      launchable: true,
      filters: [
        {
          activity: `${MUSIC_PACKAGE}.MusicActivity`,
          actions: ['android.intent.action.MUSIC_PLAYER'],
          categories: ['android.intent.category.DEFAULT'],
        },
      ],
    },
    render(ctx: AppContext): UiNode[] {
      const media = ctx.services.media;
      const track = media.current();
      const playing = media.state === 'playing';
      return [
        titleBar(ctx, 'Music'),
        textView(ctx, 'track_title', track.title, rect(32, TITLE_BOTTOM + 80, 688, TITLE_BOTTOM + 150)),
        textView(
          ctx,
          'track_artist',
          `${track.artist} - ${track.album}`,
          rect(32, TITLE_BOTTOM + 160, 688, TITLE_BOTTOM + 220),
        ),
        textView(
          ctx,
          'playback_state',
          playing ? 'Playing' : media.state === 'stopped' ? 'Stopped' : 'Paused',
          rect(32, TITLE_BOTTOM + 240, 688, TITLE_BOTTOM + 300),
        ),
        button(ctx, 'previous_button', 'Prev', rect(32, TITLE_BOTTOM + 340, 232, TITLE_BOTTOM + 440), 'previous', {
          contentDesc: 'Previous track',
        }),
        button(
          ctx,
          'play_pause_button',
          playing ? 'Pause' : 'Play',
          rect(260, TITLE_BOTTOM + 340, 460, TITLE_BOTTOM + 440),
          'play-pause',
          { contentDesc: playing ? 'Pause' : 'Play' },
        ),
        button(ctx, 'next_button', 'Next', rect(488, TITLE_BOTTOM + 340, 688, TITLE_BOTTOM + 440), 'next', {
          contentDesc: 'Next track',
        }),
      ];
    },
    onAction(action: string, ctx: AppContext): void {
      ctx.services.media.dispatch(action);
    },
    clearData() {},
  };
}
