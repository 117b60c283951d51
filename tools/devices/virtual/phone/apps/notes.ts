/**
 * Notes: an editor (a text field and a Save button) and a list of saved notes. Saving a non-empty
 * note stores it, clears the field and opens the list; the list's "New note" returns to the editor.
 */
import { rect, type UiNode } from '../ui';
import type { AppContext, VirtualApp } from './app';
import { SCREEN_WIDTH, TITLE_BOTTOM, button, editText, scrollList, textView, titleBar } from './widgets';

export const NOTES_PACKAGE = 'com.example.notes';
const EDITOR = `${NOTES_PACKAGE}.MainActivity`;
const LIST = `${NOTES_PACKAGE}.NoteListActivity`;
const INPUT_ID = `${NOTES_PACKAGE}:id/note_input`;

export function createNotesApp(): VirtualApp {
  let notes: string[] = [];
  return {
    info: {
      packageName: NOTES_PACKAGE,
      label: 'Notes',
      system: false,
      versionName: '1.4.2',
      versionCode: 142,
      activities: [EDITOR, LIST],
      launchable: true,
    },
    render(ctx: AppContext): UiNode[] {
      if (ctx.activity === LIST) {
        const rows = notes.map(
          (note) => (r: ReturnType<typeof rect>) =>
            textView(ctx, 'note_item', note, rect(32, r.top + 8, SCREEN_WIDTH - 32, r.bottom - 8)),
        );
        return [
          titleBar(ctx, 'Saved notes'),
          textView(
            ctx,
            'note_count',
            `${notes.length} note${notes.length === 1 ? '' : 's'}`,
            rect(32, TITLE_BOTTOM + 16, 688, TITLE_BOTTOM + 72),
          ),
          scrollList(ctx, 'note_list', rect(0, TITLE_BOTTOM + 88, SCREEN_WIDTH, 1080), 96, rows),
          button(ctx, 'new_note_button', 'New note', rect(32, 1110, 688, 1206), 'new'),
        ];
      }
      return [
        titleBar(ctx, 'New note'),
        editText(ctx, 'note_input', rect(32, TITLE_BOTTOM + 40, 688, TITLE_BOTTOM + 150), { hint: 'Write a note' }),
        button(ctx, 'save_button', 'Save', rect(32, TITLE_BOTTOM + 180, 340, TITLE_BOTTOM + 276), 'save'),
        button(ctx, 'all_notes_button', 'All notes', rect(380, TITLE_BOTTOM + 180, 688, TITLE_BOTTOM + 276), 'list'),
      ];
    },
    onAction(action: string, ctx: AppContext): void {
      if (action === 'save') {
        const text = ctx.field(INPUT_ID);
        if (text.trim() === '') {
          ctx.log('W', 'NotesApp', 'refusing to save an empty note');
          return;
        }
        notes.push(text);
        ctx.setField(INPUT_ID, '');
        ctx.log('D', 'NotesApp', `saved note #${notes.length} (${text.length} chars)`);
        ctx.startActivity(LIST);
      } else if (action === 'list') {
        ctx.startActivity(LIST);
      } else if (action === 'new') {
        ctx.startActivity(EDITOR);
      }
    },
    clearData() {
      notes = [];
    },
  };
}
