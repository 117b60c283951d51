const DESCRIPTION =
  'Checks a web form in the browser - opens the page, lists its fields with their labels, required ' +
  'marks and errors, and walks through filling and submitting it only when asked. Use it to review a ' +
  'sign-up, contact or checkout form, or to find why a form will not submit.';

const OPEN_AND_SNAPSHOT =
  'Opens a page and returns its accessibility snapshot, each field and button with a ref for ' +
  'browser_input and browser_click.';

/** A skill shipped with Toolgate: checking a web form over the browser tools. */
export const WEB_FORM_CHECK = `---
name: web-form-check
description: ${DESCRIPTION}
license: MIT
metadata:
  author: Toolgate
  version: "1.0"
tools:
  - name: open_and_snapshot
    description: ${OPEN_AND_SNAPSHOT}
    params:
      - name: url
        type: string
        description: e.g. https://example.com/signup.
    steps:
      - tool: browser_navigate
        args: { url: "{url}", waitUntil: domcontentloaded }
      - tool: browser_snapshot
        args: { maxChars: 60000 }
---

# Web form check

1. Run \`skill_web-form-check_open_and_snapshot\` with the page's \`url\`.
2. From the snapshot, list every field of the form: its label (or placeholder if it has none), its
   type (textbox, checkbox, combobox…), whether it is required, and any error text shown beside it.
   A field without a label is an accessibility defect: report it.
3. Check the submit button: present, labelled, enabled.
4. Only when the user asked you to submit: fill the fields with \`browser_input\` (refs from the
   snapshot), choose options with \`browser_select\`, then \`browser_click\` the submit button and take
   a new \`browser_snapshot\` to read the outcome (a confirmation, or the errors it shows).
5. Never enter real personal data or passwords the user did not give you for this purpose.

Report: a table of fields (label, type, required, problem) and one line on the submit button.
`;
