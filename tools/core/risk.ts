/**
 * The three risk levels of docs/architecture.md#metadata-and-annotations (LOW/MEDIUM/HIGH),
 * ordered; metadata and annotations both build on them.
 */
export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export function riskRank(risk: RiskLevel): number {
  return RISK_LEVELS.indexOf(risk);
}
