/**
 * Context-window thresholds (docs/loop.md §6), derived from the per-model table in config. Pure.
 *
 * @example
 * contextThresholds('claude-sonnet-4-6', DEFAULT_CONFIG)
 * // { contextWindow: 200000, effectiveWindow: 180000, autocompact: 167000, blocking: 177000, ... }
 */
import { modelInfo, type LoopConfig, type ModelInfo } from '../config/config.ts';

export interface ContextThresholds {
  contextWindow: number;
  /** Output tokens reserved out of the window. */
  outputReservation: number;
  effectiveWindow: number;
  autocompact: number;
  blocking: number;
  autocompactWarning: number;
  blockingWarning: number;
}

function maxOutputOf(info: ModelInfo, config: LoopConfig): number {
  return config.features.maxOutputTokensCap ? Math.min(config.limits.cappedMaxTokens, info.maxOutputTokens) : info.maxOutputTokens;
}

function outputReservationOf(info: ModelInfo, config: LoopConfig): number {
  return Math.min(maxOutputOf(info, config), config.thresholds.maxOutputReservation);
}

/** The `max_tokens` a request gets when nothing overrides it. */
export function defaultMaxOutputTokens(model: string, config: LoopConfig): number {
  return maxOutputOf(modelInfo(config, model), config);
}

/**
 * `contextThresholds(model, config).autocompact` alone: the autocompact guard asks for it on every turn, and the
 * whole table (a seven-member object, the model's info looked up twice) was most of that guard's cost.
 */
export function autocompactThreshold(model: string, config: LoopConfig): number {
  const info = modelInfo(config, model);
  return info.contextWindow - outputReservationOf(info, config) - config.thresholds.autocompactBuffer;
}

export function contextThresholds(model: string, config: LoopConfig): ContextThresholds {
  const info = modelInfo(config, model);
  const outputReservation = outputReservationOf(info, config);
  const effectiveWindow = info.contextWindow - outputReservation;
  const autocompact = effectiveWindow - config.thresholds.autocompactBuffer;
  const blocking = (config.thresholds.blockingFromWindow ? info.contextWindow : effectiveWindow) - config.thresholds.blockingBuffer;
  return {
    contextWindow: info.contextWindow,
    outputReservation,
    effectiveWindow,
    autocompact,
    blocking,
    autocompactWarning: autocompact - config.thresholds.warningBuffer,
    blockingWarning: blocking - config.thresholds.warningBuffer,
  };
}
