// How a model column reads to a person: a case of model-free steps runs on no model (its
// column is "", or " @ host" under a host profile) and reads "no model"; its parts are steps.

/** The "no model" column of model-free steps. */
export function isModelFree(model: string): boolean {
  return model === '' || model.startsWith(' @ ');
}

export function modelLabel(model: string): string {
  return isModelFree(model) ? `no model${model}` : model;
}

/** What a part of an iteration is called: a step of a model-free case, else a turn. */
export function partWord(model: string): 'step' | 'turn' {
  return isModelFree(model) ? 'step' : 'turn';
}
