// Sets CSS properties on an element through the CSSOM only. Lit's styleMap
// writes a `style` attribute on first render, which a strict
// Content-Security-Policy (style-src without 'unsafe-inline') blocks; the
// CSSOM is not subject to it. Names are CSS names (`background`, `--_cols`).
import { noChange } from 'lit';
import { Directive, directive, type AttributePart } from 'lit/directive.js';

class CssProps extends Directive {
  private previous = new Set<string>();

  render(_props: Record<string, string | undefined>) {
    return noChange;
  }

  override update(part: AttributePart, [props]: [Record<string, string | undefined>]) {
    const style = (part.element as HTMLElement).style;
    for (const name of this.previous) if (props[name] == null) style.removeProperty(name);
    this.previous = new Set();
    for (const [name, value] of Object.entries(props)) {
      if (value == null) continue;
      style.setProperty(name, value);
      this.previous.add(name);
    }
    return noChange;
  }
}

export const cssProps = directive(CssProps);
