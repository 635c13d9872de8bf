// How a model column reads to a person: a case of model-free steps runs on no model (its
// column is "", or " @ host" under a host profile) and reads "no model".

export function modelLabel(model: string): string {
  if (model === '') return 'no model';
  if (model.startsWith(' @ ')) return `no model${model}`;
  return model;
}
