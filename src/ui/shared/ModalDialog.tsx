/**
 * The page's modal dialogs (the `?` help, Share…): a dimmed backdrop that closes on a click outside, focus moved into
 * the dialog and given back to where it was when it closes, Esc from the shortcuts table's row for the dialog's
 * scope, a titled header with its close button, and the dialog's own body.
 */

import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { BUTTON } from './button-class.ts'
import { shortcutFor } from './shortcuts.ts'

interface ModalDialogProps {
  readonly title: string
  /** The id its heading carries (the dialog is labelled by it). */
  readonly titleId: string
  /** The shortcuts table's scope whose `close` row closes it. */
  readonly scope: 'help' | 'share'
  readonly closeLabel: string
  readonly onClose: () => void
  /** Its size and its distance from the top (Tailwind classes). */
  readonly sizeClass: string
  readonly topClass: string
  /** `data-*` attributes of the dialog element (its test contract). */
  readonly data: Readonly<Record<`data-${string}`, string>>
  readonly children: ReactNode
}

export function ModalDialog({
  title,
  titleId,
  scope,
  closeLabel,
  onClose,
  sizeClass,
  topClass,
  data,
  children,
}: ModalDialogProps) {
  const dialog = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    dialog.current?.focus()
    return () => before?.focus()
  }, [])
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (shortcutFor(scope, event) !== 'close') return
    event.preventDefault()
    event.stopPropagation()
    onClose()
  }
  return (
    <div className={`absolute inset-0 z-50 flex items-start justify-center bg-canvas/70 ${topClass}`} onClick={onClose}>
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        {...data}
        onKeyDown={onKeyDown}
        onClick={(event) => event.stopPropagation()}
        className={`flex ${sizeClass} flex-col border border-line bg-panel shadow-lg outline-none focus-visible:ring-2 focus-visible:ring-accent`}
      >
        <header className="flex items-center gap-2 border-b border-line bg-raised px-3 py-1.5">
          <h2 id={titleId} className="text-sm font-semibold">
            {title}
          </h2>
          <button type="button" className={`${BUTTON} ml-auto`} onClick={onClose}>
            {closeLabel}
          </button>
        </header>
        {children}
      </div>
    </div>
  )
}
