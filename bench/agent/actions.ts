/**
 * The six actions an agent takes on a phone, as each server names them: the tool, its arguments,
 * and what a result must contain to count as the action done (mobile-mcp reports some failures as
 * ordinary text, without isError). The phone shows the Notes editor with its text field focused,
 * so tap lands on the field and typing has somewhere to go on every side.
 */

export const ACTIONS = ['device_info', 'app_list', 'ui_dump', 'screenshot', 'tap', 'type'] as const;
export type Action = (typeof ACTIONS)[number];

export interface ToolCallSpec {
  name: string;
  arguments: Record<string, unknown>;
}

export interface McpContent {
  type: string;
  text?: string;
  data?: string;
}

/** Where the Notes editor's text field is on the pixel profile's screen (found by the bench's setup). */
export interface Target {
  serial: string;
  x: number;
  y: number;
}

export const TYPED = 'hello';

export function toolgateCall(action: Action, t: Target): ToolCallSpec {
  const serial = t.serial;
  switch (action) {
    case 'device_info':
      return { name: 'get_device_info', arguments: { serial } };
    case 'app_list':
      return { name: 'app_list', arguments: { serial } };
    case 'ui_dump':
      return { name: 'ui_dump', arguments: { serial } };
    case 'screenshot':
      return { name: 'screenshot', arguments: { serial } };
    case 'tap':
      return { name: 'ui_tap', arguments: { serial, x: t.x, y: t.y } };
    case 'type':
      return { name: 'input_text', arguments: { serial, text: TYPED } };
  }
}

export function mobileMcpCall(action: Action, t: Target): ToolCallSpec {
  const device = t.serial;
  switch (action) {
    case 'device_info':
      return { name: 'mobile_list_available_devices', arguments: {} };
    case 'app_list':
      return { name: 'mobile_list_apps', arguments: { device } };
    case 'ui_dump':
      return { name: 'mobile_list_elements_on_screen', arguments: { device } };
    case 'screenshot':
      return { name: 'mobile_take_screenshot', arguments: { device } };
    case 'tap':
      return { name: 'mobile_click_on_screen_at_coordinates', arguments: { device, x: t.x, y: t.y } };
    case 'type':
      return { name: 'mobile_type_keys', arguments: { device, text: TYPED, submit: false } };
  }
}

/** What the action's result must show: undefined when it did the action, else why not. */
export function checkResult(action: Action, result: Record<string, unknown>): string | undefined {
  const content = (result.content ?? []) as McpContent[];
  const text = content.map((c) => c.text ?? '').join('\n');
  if (result.isError) return text.slice(0, 300) || 'isError without text';
  const expect: Record<Action, (t: string) => boolean> = {
    device_info: (t) => t.includes('Pixel 8'),
    app_list: (t) => t.includes('com.example.notes'),
    ui_dump: (t) => t.includes('note_input') || t.includes('Write a note'),
    screenshot: () => content.some((c) => c.type === 'image' && (c.data?.length ?? 0) > 1000),
    tap: (t) => /tapped|clicked/i.test(t),
    type: (t) => /typed/i.test(t),
  };
  return expect[action](text) ? undefined : `unexpected answer: ${text.slice(0, 300) || '(no text)'}`;
}
