// The queue's keyboard shortcuts, shown with "Keyboard shortcuts" or "?".
export function Shortcuts() {
  return (
    <div className="note shortcuts" id="shortcuts">
      <h2>Keyboard shortcuts</h2>
      <dl>
        <dt>j / ↓, k / ↑</dt>
        <dd>next, previous post</dd>
        <dt>a</dt>
        <dd>approve</dd>
        <dt>r</dt>
        <dd>reject</dd>
        <dt>h</dt>
        <dd>hide or unhide</dd>
        <dt>p</dt>
        <dd>pin or unpin</dd>
        <dt>x / space</dt>
        <dd>select; with a selection, a r h p act on all selected posts</dd>
        <dt>Esc</dt>
        <dd>clear the selection</dd>
        <dt>u</dt>
        <dd>undo the last action</dd>
      </dl>
    </div>
  );
}
