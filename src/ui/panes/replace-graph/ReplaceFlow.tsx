/**
 * React Flow as both graph views use it (the small graph and the large one's near view): read-only (no dragging, no
 * new edges, edges not focusable), the same zoom ceiling, the zoom controls in the top-left corner, and mounted only
 * after the page has painted (AfterPaint says why).
 */

import { Controls, ReactFlow, type Edge, type Node, type ReactFlowProps } from '@xyflow/react'
import { AfterPaint } from '../../shared/AfterPaint.tsx'

/** The zoom ceiling of both views. */
export const MAX_ZOOM = 1.25

export function ReplaceFlow<N extends Node, E extends Edge = Edge>({ children, ...props }: ReactFlowProps<N, E>) {
  return (
    <AfterPaint>
      <ReactFlow<N, E>
        nodesDraggable={false}
        nodesConnectable={false}
        // Edges do nothing when picked: not Tab stops of their own (nodes are, and show a focus ring: theme.css).
        edgesFocusable={false}
        maxZoom={MAX_ZOOM}
        proOptions={{ hideAttribution: true }}
        aria-label="Replace operations"
        {...props}
      >
        {children}
        <Controls showInteractive={false} position="top-left" orientation="horizontal" />
      </ReactFlow>
    </AfterPaint>
  )
}
