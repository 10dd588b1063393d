import type { ComponentType, ReactNode } from 'react';

/*
 * A Swagger UI plugin that mends the markup axe-core finds wanting, through Swagger UI's own
 * plugin API (wrapComponents wraps a component, components replaces one): its colours are
 * mended in reference.css. No Firebase here: the page's sign-in is main.ts's.
 */

// What Swagger UI hands a plugin and a wrapper; only the few parts used here are typed.
interface System {
  React: { createElement(type: unknown, props?: Record<string, unknown> | null, ...children: ReactNode[]): ReactNode };
}
interface Props {
  [prop: string]: unknown;
  children?: ReactNode;
  className?: string;
  operationProps?: { set(key: string, value: unknown): unknown };
  specSelectors?: { servers(): { size: number } | undefined };
}
type Wrapper = (Original: ComponentType<Props>, system: System) => (props: Props) => ReactNode;

export function accessible(system: System) {
  const h = system.React.createElement;
  const wrapComponents: Record<string, Wrapper> = {
    // The path sits inside the operation's expand button: a deep link there nests one control in
    // another (the tag's heading keeps its link, and the address still follows what is open).
    OperationSummaryPath: (Original) => (props) =>
      h(Original, { ...props, operationProps: props.operationProps?.set('isDeepLinkingEnabled', false) }),
    // One server ("/"): its picker would be a control with no name, and no choice to make.
    ServersContainer: (Original) => (props) =>
      (props.specSelectors?.servers()?.size ?? 0) > 1 ? h(Original, props) : null,
    // "Authorize" and "Logout" carry an aria-label that hides their visible words from speech
    // input ("Apply credentials"): a button with words of its own is named by them.
    Button:
      (Original) =>
      ({ 'aria-label': label, ...props }) =>
        h(Original, typeof props.children === 'string' ? props : { ...props, 'aria-label': label }),
    // The dialog's close button holds only this icon: it is named by words a screen reader reads.
    CloseIcon: (Original) => (props) =>
      h('span', null, h(Original, props), h('span', { className: 'visually-hidden' }, 'Close')),
    // The bearer token's field is named by its value's internal key otherwise.
    Input: (Original) => (props) =>
      h(Original, props['aria-label'] === 'auth-bearer-value' ? { ...props, 'aria-label': 'Bearer token' } : props),
  };
  return {
    wrapComponents,
    components: {
      // Examples and replies scroll: a plain block a keyboard can focus (and so scroll), in
      // colours of sufficient contrast (the highlighter's theme has some below it).
      SyntaxHighlighter: ({ className, children }: Props) =>
        h('pre', { className, tabIndex: 0 }, h('code', null, children)),
    },
  };
}
