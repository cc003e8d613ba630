/**
 * Foods and meals of the demo source, with nutrients per portion (rough real-world values).
 */
export interface Food {
  name: string;
  kcal: number;
  carbohydrate: number;
  protein: number;
  saturated_fat: number;
  unsaturated_fat: number;
  dietary_fiber: number;
  sugars: number;
  sodium: number;
  cholesterol: number;
}

const f = (name: string, kcal: number, carbohydrate: number, protein: number, saturated_fat: number, unsaturated_fat: number, dietary_fiber: number, sugars: number, sodium: number, cholesterol: number): Food =>
  ({ name, kcal, carbohydrate, protein, saturated_fat, unsaturated_fat, dietary_fiber, sugars, sodium, cholesterol });

export const MENUS: Record<'breakfast' | 'lunch' | 'dinner', { name: string; foods: Food[] }[]> = {
  breakfast: [
    { name: 'Oatmeal with berries', foods: [f('Oats', 150, 27, 5, 0.5, 2, 4, 1, 2, 0), f('Blueberries', 40, 10, 0.5, 0, 0.2, 2, 7, 1, 0), f('Milk', 90, 9, 6, 2, 1, 0, 9, 80, 12)] },
    { name: 'Eggs on toast', foods: [f('Eggs', 155, 1, 13, 3, 7, 0, 1, 140, 370), f('Wholegrain toast', 140, 24, 6, 0.4, 1.2, 4, 3, 250, 0), f('Orange juice', 85, 20, 1, 0, 0.1, 0.5, 17, 2, 0)] },
    { name: 'Yogurt and granola', foods: [f('Greek yogurt', 130, 6, 17, 3, 1, 0, 6, 60, 15), f('Granola', 200, 30, 5, 1.5, 5, 3, 10, 90, 0), f('Banana', 105, 27, 1.3, 0.1, 0.2, 3, 14, 1, 0)] },
  ],
  lunch: [
    { name: 'Chicken salad', foods: [f('Grilled chicken', 230, 0, 43, 1.5, 3, 0, 0, 100, 120), f('Mixed greens', 25, 5, 2, 0, 0.2, 2.5, 2, 40, 0), f('Olive oil dressing', 120, 1, 0, 2, 11, 0, 1, 150, 0)] },
    { name: 'Lentil soup and bread', foods: [f('Lentil soup', 230, 36, 15, 0.5, 1.5, 12, 4, 700, 0), f('Sourdough bread', 180, 35, 7, 0.3, 0.7, 2, 2, 380, 0)] },
    { name: 'Rice bowl with tofu', foods: [f('Brown rice', 215, 45, 5, 0.4, 1.2, 3.5, 0.7, 10, 0), f('Tofu', 180, 4, 20, 1.5, 8, 2, 1, 15, 0), f('Vegetables', 60, 12, 3, 0, 0.3, 4, 5, 60, 0)] },
  ],
  dinner: [
    { name: 'Salmon with potatoes', foods: [f('Salmon', 280, 0, 30, 3, 12, 0, 0, 90, 80), f('Potatoes', 160, 37, 4, 0, 0.2, 4, 2, 15, 0), f('Broccoli', 55, 11, 4, 0.1, 0.4, 5, 2, 50, 0)] },
    { name: 'Pasta with tomato sauce', foods: [f('Pasta', 350, 70, 12, 0.4, 1.5, 4, 2, 5, 0), f('Tomato sauce', 90, 14, 3, 0.4, 2.5, 4, 10, 600, 0), f('Parmesan', 110, 1, 10, 4.5, 2.5, 0, 0, 390, 20)] },
    { name: 'Beef stir-fry', foods: [f('Beef strips', 250, 0, 26, 6, 8, 0, 0, 70, 80), f('Noodles', 220, 43, 7, 0.3, 1, 2, 1, 300, 0), f('Stir-fry vegetables', 70, 13, 3, 0.1, 0.5, 4, 6, 400, 0)] },
  ],
};
